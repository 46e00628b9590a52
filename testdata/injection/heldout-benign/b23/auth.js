// Do not log the token; it is a secret.
const token = process.env.TOKEN;
