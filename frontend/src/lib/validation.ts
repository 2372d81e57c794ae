/** The server's rules (UiSessionEndpoints), checked before sending so the form can say what is wrong at once. */
export const minPasswordLength = 8;
export const maxPasswordLength = 256;
export const maxUserLength = 64;

/** Why a new user name and password cannot be used, or null when they can. */
export function credentialsProblem(user: string, password: string, confirmation: string): string | null {
  const name = user.trim();
  if (name.length === 0) return "Enter a user name.";
  if (name.length > maxUserLength) return `The user name can have at most ${maxUserLength} characters.`;
  if (/\p{Cc}/u.test(name)) return "The user name cannot contain control characters.";
  if (password.length < minPasswordLength) return `The password needs at least ${minPasswordLength} characters.`;
  if (password.length > maxPasswordLength) return `The password can have at most ${maxPasswordLength} characters.`;
  if (password !== confirmation) return "The two passwords differ.";
  return null;
}

/** The setup code as the server logged it ("ABCDE-FGHJK"), whatever the user typed around it. */
export function normalizeSetupCode(typed: string): string {
  const letters = typed.toUpperCase().replace(/[^A-Z0-9]/g, "");
  return letters.length === 10 ? `${letters.slice(0, 5)}-${letters.slice(5)}` : letters;
}
