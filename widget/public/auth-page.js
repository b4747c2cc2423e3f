// The mailed-link pages' one script (their CSP allows only this origin's): each password field
// gets a button that shows what was typed. Without it the forms work the same.
for (const button of document.querySelectorAll("button[data-show]")) {
  const input = document.getElementById(button.dataset.show);
  button.hidden = false;
  button.addEventListener("click", () => {
    const shown = input.type === "password";
    for (const field of document.querySelectorAll("input[autocomplete=new-password]")) {
      field.type = shown ? "text" : "password";
    }
    for (const other of document.querySelectorAll("button[data-show]")) {
      other.textContent = shown ? "Hide" : "Show";
    }
  });
}
