package p

// Callers must not send the cookie to other hosts; the jar filters by domain.
