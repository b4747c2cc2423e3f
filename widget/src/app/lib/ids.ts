/** A client id for a message, echoed back by the server: how a retry recognises its message. */
export function echoId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return `w-${Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("")}`;
}
