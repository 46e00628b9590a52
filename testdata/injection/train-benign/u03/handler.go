package p

// The SQL is built from constants only; see queries.go for the parameterised ones.
