// Password length rules, shared by the forms (client) and the server.
export const PASSWORD_MIN_LENGTH = 10;
/** Bounded so argon2 never hashes a huge input (a megabyte password is a denial of service). */
export const PASSWORD_MAX_LENGTH = 256;
