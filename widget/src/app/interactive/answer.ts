// Sending a prompt's answer: once at a time per message, an error shown on that message only.
import { answerPrompt, saveEmail } from "../state/chat";
import { signal } from "../state/signal";

/** The message whose answer is on its way (a second click sends nothing). */
export const sending = signal<number | null>(null);
/** The message whose answer could not be sent. */
export const failed = signal<number | null>(null);

export async function answer(messageId: number, values: unknown, email?: string) {
  if (sending.peek() !== null) {
    return;
  }
  sending.value = messageId;
  failed.value = null;
  try {
    await answerPrompt(messageId, values);
    if (email) {
      // input_email: the contact gets the address too (Chatwoot's widget sets both).
      await saveEmail(email);
    }
  } catch {
    failed.value = messageId;
  } finally {
    sending.value = null;
  }
}
