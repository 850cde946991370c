// Sortable tables: a click on a column header sorts its table by that column, numbers as
// numbers; a second click reverses. Inlined into each report page; no library.
"use strict";
document.querySelectorAll("table.sortable").forEach((table) => {
  const heads = table.querySelectorAll("thead th");
  heads.forEach((th, col) => {
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = th.textContent;
    th.textContent = "";
    th.appendChild(button);
    button.addEventListener("click", () => {
      const asc = th.getAttribute("aria-sort") !== "ascending";
      heads.forEach((h) => h.removeAttribute("aria-sort"));
      th.setAttribute("aria-sort", asc ? "ascending" : "descending");
      const body = table.tBodies[0];
      const rows = Array.from(body.rows);
      const key = (row) => {
        const cell = row.cells[col];
        const text = cell ? (cell.dataset.sort !== undefined ? cell.dataset.sort : cell.textContent.trim()) : "";
        const n = Number(text);
        return text !== "" && !Number.isNaN(n) ? n : text.toLowerCase();
      };
      rows.sort((a, b) => {
        const x = key(a), y = key(b);
        const c = typeof x === "number" && typeof y === "number" ? x - y : String(x).localeCompare(String(y));
        return asc ? c : -c;
      });
      rows.forEach((r) => body.appendChild(r));
    });
  });
});
