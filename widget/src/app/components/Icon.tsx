const ICONS = {
  close: "M6 6l12 12M18 6 6 18",
  send: "M4 12 20 4l-5 16-3-7-8-1z",
  attach:
    "M21 11.5 12.6 20a5 5 0 0 1-7.1-7.1l8.5-8.5a3.3 3.3 0 0 1 4.7 4.7l-8.5 8.5a1.7 1.7 0 0 1-2.4-2.4L15.6 7",
  file: "M14 3H6v18h12V7zM14 3v4h4",
  help: "M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18zM9.5 9.5a2.5 2.5 0 1 1 3.4 2.3c-.6.3-.9.8-.9 1.4v.3M12 17v.01",
};

/** A decorative stroked icon; the button around it carries the label. */
export function Icon({ name }: { name: keyof typeof ICONS }) {
  return (
    <svg
      viewBox="0 0 24 24"
      width="20"
      height="20"
      fill="none"
      stroke="currentColor"
      stroke-width="2"
      stroke-linecap="round"
      stroke-linejoin="round"
      aria-hidden="true"
      class="pw-flip"
    >
      <path d={ICONS[name]} />
    </svg>
  );
}
