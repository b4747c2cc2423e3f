import { useRef, useState } from "preact/hooks";
import { send, typing } from "../state/thread";

/** Reply or private note; Enter sends, Shift+Enter is a new line; files go over HTTP. */
export function Composer({ disabled }: { disabled: boolean }) {
  const [note, setNote] = useState(false);
  const [text, setText] = useState("");
  const [files, setFiles] = useState<File[]>([]);
  const input = useRef<HTMLTextAreaElement>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const submit = () => {
    const content = text.trim();
    if (!content && files.length === 0) {
      return;
    }
    send(content, note, files);
    typing(false, note);
    setText("");
    setFiles([]);
    if (fileInput.current) {
      fileInput.current.value = "";
    }
  };
  return (
    <form
      class={`composer${note ? " noting" : ""}`}
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <fieldset class="modes" aria-label="Message kind">
        <button
          type="button"
          aria-pressed={!note}
          id="mode-reply"
          onClick={() => {
            setNote(false);
            input.current?.focus();
          }}
        >
          Reply
        </button>
        <button
          type="button"
          aria-pressed={note}
          id="mode-note"
          onClick={() => {
            setNote(true);
            input.current?.focus();
          }}
        >
          Private note
        </button>
      </fieldset>
      <textarea
        id="composer"
        ref={input}
        rows={3}
        value={text}
        disabled={disabled}
        aria-label={note ? "Private note, seen by agents only" : "Reply to the contact"}
        placeholder={
          note
            ? "A note only agents see (Enter to add, Shift+Enter for a new line)"
            : "Reply (Enter to send, Shift+Enter for a new line)"
        }
        onInput={(e) => {
          setText((e.currentTarget as HTMLTextAreaElement).value);
          typing(true, note);
        }}
        onBlur={() => typing(false, note)}
        onKeyDown={(e) => {
          if (e.key === "Enter" && !e.shiftKey && !e.isComposing) {
            e.preventDefault();
            submit();
          }
        }}
      />
      <div class="composer-bar">
        <label class="attach">
          <input
            ref={fileInput}
            type="file"
            multiple
            onChange={(e) => setFiles([...((e.currentTarget as HTMLInputElement).files ?? [])])}
          />
          Attach{files.length ? ` (${files.length})` : ""}
        </label>
        <button class="primary" type="submit" disabled={disabled}>
          {note ? "Add note" : "Send"}
        </button>
      </div>
    </form>
  );
}
