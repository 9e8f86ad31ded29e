// The book's exercises, answered in the page itself (no kernel). attnbook/exercises/_page.py puts this
// module after each chapter's exercise data (JSON made by export() in Python: the answer attnlib
// computed and the wrong answer of every misconception, as numbers). diagnose() below is the rule of
// attnbook/exercises/_diagnose.py, line for line: the same input gives the same verdict in both. Code
// exercises show the task and point to a live kernel.

// One rule for what counts as a number, the same as normalise_text and parse_numbers in _parsing.py:
// NFKC (full-width digits and signs become ASCII), U+2212 becomes "-", invisible characters go,
// then only the ASCII digits 0-9 count.
const NUMBER = /^[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?$/;
const SEPARATORS = /[ \t\n\r\f\v,;()[\]]+/;
const NONFINITE = ["nan", "inf", "+inf", "-inf", "infinity", "-infinity"];
const UNIT_POWERS = [3, 6, 9, -3, -6, -9];
const UNIT_RTOL = 0.005;
const UNIT_MESSAGE = "Your number is the right one times 10^{power}: check the unit. " +
  "Enter {expect}, in the unit the exercise asks for.";
const AMBIGUOUS_MESSAGE = "More than one slip gives this number: {names}. Check each step. {hint}";
const NEAR_MISS = 10;
const NEAR_MISS_MESSAGE = "Close: your method looks right, but the value is off by more than rounding allows. " +
  "Check your rounding (keep more decimals in the steps): enter {expect}.";
const QUOTE_CHARS = 40;
const DECIMAL_COMMA = /(?<![0-9.])[0-9]+,[0-9]+(?![0-9.])/;
const COMMA_NOTE = "(A comma separates two numbers: if '{typed}' is one decimal number, write it with a point, {point}.)";

// quote() in _parsing.py: at most QUOTE_CHARS characters (code points) of what the reader typed.
function quote(text) {
  const chars = Array.from(text);
  return chars.length <= QUOTE_CHARS ? text : chars.slice(0, QUOTE_CHARS - 1).join("") + "\u2026";
}

// comma_note() in _diagnose.py: a word on a decimal comma, which the rule reads as a separator.
function commaNote(text) {
  if (typeof text !== "string") return "";
  const found = normaliseText(text).match(DECIMAL_COMMA);
  if (!found) return "";
  return COMMA_NOTE.replace("{typed}", quote(found[0])).replace("{point}", quote(found[0].replace(",", ".")));
}

function normaliseText(text) {
  return String(text).normalize("NFKC").replace(/\u2212/g, "-").replace(/[\ufeff\u200b\u200c\u200d\u2060]/g, "")
    .replace(/^[ \t\n\r\f\v]+|[ \t\n\r\f\v]+$/g, "");
}

class AnswerError extends Error {}

// parse_numbers in _parsing.py: numbers separated by commas, spaces or semicolons; brackets ignored.
function parseNumbers(text, expect) {
  if (text === null || text === undefined) throw new AnswerError(`Empty answer: enter ${expect}.`);
  const tokens = normaliseText(text).split(SEPARATORS).filter((t) => t.length > 0);
  if (tokens.length === 0) throw new AnswerError(`Empty answer: enter ${expect}.`);
  const values = [];
  for (const t of tokens) {
    if (NONFINITE.includes(t.toLowerCase())) {
      throw new AnswerError("Your answer contains NaN or infinity: enter finite numbers.");
    }
    if (!NUMBER.test(t)) {
      const digits = /(?![0-9])\p{Nd}/u.test(t) ? " (write numbers with the digits 0-9)" : "";
      throw new AnswerError(`Expected ${expect}; '${quote(t)}' is not a number${digits}.`);
    }
    values.push(Number(t));
  }
  if (!values.every(Number.isFinite)) throw new AnswerError("Your answer contains NaN or infinity: enter finite numbers.");
  return values;
}

function matches(got, target, tol) {
  if (got.length !== target.length) return false;
  for (let i = 0; i < got.length; i++) if (!(Math.abs(got[i] - target[i]) <= tol + 1e-12)) return false;
  return true;
}

function parseOption(answer, keys) {
  const choices = keys.join(", ");
  if (answer === null || answer === undefined || normaliseText(answer) === "") {
    throw new AnswerError(`Empty answer: choose one of ${choices}.`);
  }
  const raw = normaliseText(answer);
  const key = raw.replace(/^\(+|\)+$/g, "").toLowerCase();
  if (!keys.includes(key)) throw new AnswerError(`Choose one of ${choices}; '${quote(raw)}' is not one of them.`);
  return key;
}

function verdict(ex, status, message, link) {
  return { status, title: ex.titles[status], message, href: link ? ex.href : null, linkTitle: link ? ex.linkTitle : null };
}

function misconception(m) {
  return { status: "misconception", title: m.title, message: m.hint, href: m.href, linkTitle: m.linkTitle, key: m.key };
}

// _close_to_a_slip() in _diagnose.py: near a mistake's value, "close" could be another method rounded.
function closeToASlip(got, spec, mistakes) {
  return mistakes.some((m) => m.value && matches(got, m.value, NEAR_MISS * spec.tol));
}

// _unit_power() in _diagnose.py: only for an answer asked in a unit, with a tolerance that scales.
function unitPower(got, spec) {
  if (!spec.units || !spec.value.every((v) => Math.abs(v) > spec.tol)) return null;
  for (const power of UNIT_POWERS) {
    const scaled = spec.value.map((v) => v * 10 ** power);
    if (got.length === scaled.length && got.every((g, i) =>
      Math.abs(g - scaled[i]) <= Math.max(spec.tol * 10 ** power, UNIT_RTOL * Math.abs(scaled[i])))) return power;
  }
  return null;
}

function numericRule(ex, spec, got, mistakes) {
  if (matches(got, spec.value, spec.tol)) return verdict(ex, "correct", ex.why, false);
  for (const c of spec.confusions || []) {
    if (matches(got, c.value, spec.tol)) {
      return verdict(ex, "not-yet", AMBIGUOUS_MESSAGE.replace("{names}", c.names.join("; or ")).replace("{hint}", ex.hint), true);
    }
  }
  // a mistake may give a different number of values (a shape without the batch axis)
  const named = mistakes.filter((m) => m.value && matches(got, m.value, spec.tol));
  if (named.length > 1) {  // two slips' values both within the tolerance of this answer: it shows neither alone
    const names = named.map((m) => m.name).join("; or ");
    return verdict(ex, "not-yet", AMBIGUOUS_MESSAGE.replace("{names}", names).replace("{hint}", ex.hint), true);
  }
  if (named.length) return misconception(named[0]);
  if (got.length !== spec.value.length) {
    throw new AnswerError(`Expected ${spec.expect}, got ${got.length} number${got.length !== 1 ? "s" : ""}.`);
  }
  if (matches(got, spec.value, NEAR_MISS * spec.tol) && !closeToASlip(got, spec, mistakes)) {
    return verdict(ex, "not-yet", NEAR_MISS_MESSAGE.replace("{expect}", spec.expect), true);
  }
  const power = unitPower(got, spec);
  if (power !== null) {
    return verdict(ex, "not-yet", UNIT_MESSAGE.replace("{power}", power).replace("{expect}", spec.expect), true);
  }
  return verdict(ex, "not-yet", ex.hint, true);
}

function withNote(message, note) {
  return note ? `${message} ${note}`.trim() : message;
}

function diagnoseNumeric(ex, spec, text, mistakes) {
  const note = commaNote(text);
  let v;
  try {
    v = numericRule(ex, spec, parseNumbers(text, spec.expect), mistakes);
  } catch (err) {
    if (err instanceof AnswerError) throw new AnswerError(withNote(err.message, note));
    throw err;
  }
  return note && v.status !== "correct" ? { ...v, message: withNote(v.message, note) } : v;
}

function diagnoseChoice(ex, spec, answer) {
  const key = parseOption(answer, spec.options.map((o) => o[0]));
  if (key === spec.correct) return verdict(ex, "correct", ex.why, false);
  for (const m of ex.mistakes) if (m.option === key) return misconception(m);
  return verdict(ex, "not-yet", ex.hint, true);
}

function diagnoseFindError(ex, spec, step, text) {
  const key = parseOption(step, spec.steps.map((s) => s[0]));
  if (key !== spec.wrong) {
    for (const m of ex.mistakes) if (m.option === key) return misconception(m);
    return verdict(ex, "not-yet", ex.hint, true);
  }
  const v = diagnoseNumeric(ex, spec.value, text, ex.mistakes.filter((m) => m.value));
  const note = commaNote(text);
  // a near miss or a unit slip keeps its own message
  return v.status === "not-yet" && v.message === withNote(ex.hint, note)
    ? verdict(ex, "not-yet", withNote(spec.valueHint, note), true) : v;
}

// The verdict on an answer: `answer` is the text of the input (numeric), the chosen key (choice), or
// {step, value} (find the error).
function diagnose(ex, answer) {
  try {
    const spec = ex.answer;
    if (spec.type === "numeric") return diagnoseNumeric(ex, spec, answer, ex.mistakes);
    if (spec.type === "choice") return diagnoseChoice(ex, spec, answer);
    if (spec.type === "find-error") return diagnoseFindError(ex, spec, answer.step, answer.value);
    return verdict(ex, "invalid", "Run code exercises in a live kernel.", false);
  } catch (err) {
    if (err instanceof AnswerError) return verdict(ex, "invalid", err.message, false);
    throw err;
  }
}

// --- the page --------------------------------------------------------------------------------------
// h(tag, attrs, children) builds an element: attnlib/widgets/_dom.js, put before this module.

function showVerdict(box, ex, v) {
  box.replaceChildren();
  box.dataset.status = v.status;
  box.append(h("strong", { class: "attnex-verdict-title", text: `${ex.id} — ${v.title}` }));
  if (v.message) box.append(" ", h("span", { class: "attnex-verdict-message", text: v.message }));
  if (v.href) {
    box.append(" ", h("a", { href: v.href, class: "attnex-verdict-link", text: `See: ${v.linkTitle}` }));
  }
}

function radioGroup(name, legend, options) {
  const fs = h("fieldset", {}, [h("legend", { text: legend })]);
  for (const [key, text] of options) {
    const id = `${name}-${key}`;
    const input = h("input", { type: "radio", name, id, value: key, "data-name": "option" });
    fs.append(h("label", { class: "attnex-option", for: id }, [input, text ? ` ${key}. ${text}` : ` step ${key}`]));
  }
  return fs;
}

function textInput(id, label, placeholder) {
  const input = h("input", { type: "text", id, "data-name": "answer", placeholder, autocomplete: "off",
    spellcheck: "false" });
  return [h("label", { for: id, text: label }), input];
}

function render(section, ex) {
  const holder = section.querySelector(".attnex-form");
  const box = section.querySelector(".attnex-feedback");
  const base = `attnex-${ex.id.replace(".", "-")}`;
  const spec = ex.answer;
  if (spec.type === "code") {
    const form = holder;
    form.append(h("p", {}, [h("code", { text: spec.signature }), ` → ${spec.returns}.`]));
    const run = h("p", { class: "attnex-run" }, ["Code runs in a live kernel: ",
      h("a", { href: spec.binder, text: "Binder" }), ", ", h("a", { href: spec.colab, text: "Colab" }),
      ", or Live Code (the rocket icon at the top of this page). The checker recognises: ",
      ex.mistakes.map((m) => m.name).join("; "), "."]);
    form.append(run);
    return;
  }
  const form = h("form", { class: "attnex-form", "aria-label": `Answer to exercise ${ex.id}` });
  holder.replaceWith(form);
  let read;
  if (spec.type === "numeric") {
    form.append(...textInput(`${base}-answer`, "Your answer:", spec.expect));
    read = () => form.querySelector('[data-name="answer"]').value;
  } else if (spec.type === "choice") {
    form.append(radioGroup(`${base}-option`, "Your answer:", spec.options));
    read = () => (form.querySelector('input[data-name="option"]:checked') || { value: "" }).value;
  } else {
    form.append(radioGroup(`${base}-step`, "The step with the slip:", spec.steps.map(([k]) => [k, ""])));
    form.append(...textInput(`${base}-answer`, "Its right value:", spec.value.expect));
    read = () => ({
      step: (form.querySelector('input[data-name="option"]:checked') || { value: "" }).value,
      value: form.querySelector('[data-name="answer"]').value,
    });
  }
  form.append(h("button", { type: "submit", "data-name": "check", text: "Check" }));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    showVerdict(box, ex, diagnose(ex, read()));
  });
}

function hydrate() {
  // myst-nb folds each solution under a <summary aria-label="Toggle hidden content"> that shows the words
  // "Show code cell source": the spoken name then differs from the visible one. Let the visible text be
  // the name (axe: label-content-name-mismatch).
  for (const summary of document.querySelectorAll('details.hide > summary[aria-label="Toggle hidden content"]')) {
    summary.removeAttribute("aria-label");
  }
  for (const set of document.querySelectorAll(".attnex-set:not([data-ready])")) {
    set.dataset.ready = "1";
    const data = JSON.parse(set.querySelector("script.attnex-data").textContent);
    const byId = Object.fromEntries(data.map((ex) => [ex.id, ex]));
    for (const section of set.querySelectorAll("section.attnex")) {
      const ex = byId[section.dataset.exercise];
      if (ex) render(section, ex);
    }
  }
}

window.attnbookExercises = { diagnose };
if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", hydrate);
else hydrate();
