/// The console's script (`/console/assets/console.js`): one small file of its own, no framework. Each page's shell
/// names the page (`data-page`); the script reads the issuer API with the session cookie and draws the page with DOM
/// calls only (text is set as text, never as HTML, so a field value can never become markup). Changes carry the
/// session's CSRF token.
enum ConsoleScript {
    static var source: String {
        [core, signIn, templates, passes, pass, campaigns, analytics, events, keys, start].joined(separator: "\n")
    }

    static let core = #"""
        "use strict";
        const consoleBase = document.body.dataset.base || "";
        const consolePage = document.body.dataset.page;
        const pages = {};
        let session = null;

        class ConsoleError extends Error {
          constructor(message, status) { super(message); this.status = status; }
        }

        /** An element with attributes (`text` sets its text, `on…` a listener) and children (strings become text). */
        function el(tag, attributes, ...children) {
          const node = document.createElement(tag);
          for (const [name, value] of Object.entries(attributes || {})) {
            if (value === null || value === undefined || value === false) continue;
            if (name === "class") node.className = value;
            else if (name === "text") node.textContent = value;
            else if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
            else node.setAttribute(name, value === true ? "" : String(value));
          }
          for (const child of children.flat()) {
            if (child === null || child === undefined || child === false) continue;
            node.append(child instanceof Node ? child : String(child));
          }
          return node;
        }

        function content() { return document.getElementById("content"); }
        function show(...nodes) { content().replaceChildren(...nodes); }
        function enc(value) { return encodeURIComponent(value); }
        function slug(value) { return String(value).replace(/[^A-Za-z0-9_-]/g, "-"); }
        function can(permission) { return session && session.permissions.includes(permission); }

        /** Says `message` in the page's live region (screen readers read it; the page shows its own copy). */
        function announce(message) {
          const region = document.getElementById("status");
          region.textContent = "";
          window.setTimeout(() => { region.textContent = message; }, 30);
        }

        function problem(error, id) {
          return el("p", { class: "problem", role: "alert", id: id || null }, error instanceof Error ? error.message : String(error));
        }

        function goToSignIn() {
          location.assign(consoleBase + "/console/sign-in?next=" + enc(location.pathname + location.search));
        }

        /** The issuer API with the session cookie: JSON in and out, the CSRF token on every change. */
        async function api(method, path, payload, options) {
          options = options || {};
          const headers = { "Accept": "application/json" };
          if (payload !== undefined) headers["Content-Type"] = "application/json";
          if (method !== "GET" && session) headers["X-CSRF-Token"] = session.csrfToken;
          if (options.idempotencyKey) headers["Idempotency-Key"] = options.idempotencyKey;
          let response;
          try {
            response = await fetch(consoleBase + path, {
              method, headers, credentials: "same-origin", cache: "no-store",
              body: payload === undefined ? undefined : JSON.stringify(payload),
            });
          } catch (error) {
            throw new ConsoleError("The server cannot be reached: check the connection and try again.", 0);
          }
          if (response.status === 401 && !options.quiet) {
            goToSignIn();
            throw new ConsoleError("Your session has ended: sign in again.", 401);
          }
          if (response.status === 204) return null;
          const type = response.headers.get("Content-Type") || "";
          const data = type.includes("json") ? await response.json().catch(() => null) : null;
          if (!response.ok) {
            const detail = data && data.error ? data.error : null;
            // A sign-in in another tab replaced this page's session: its token is the old one's. Said, not retried (the
            // new session may be another identity's).
            if (response.status === 403 && detail && detail.field === "X-CSRF-Token" && method !== "GET") {
              throw new ConsoleError("You signed in again in another tab: reload this page to go on as that session.", 403);
            }
            throw new ConsoleError(detail && detail.message ? detail.message : "The server answered " + response.status + ".", response.status);
          }
          return data;
        }

        function formatDate(text) {
          if (!text) return "—";
          const date = new Date(text);
          return isNaN(date) ? text : date.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
        }

        function formatNumber(value) {
          return value === null || value === undefined ? "—" : Number(value).toLocaleString();
        }

        function facts(rows) {
          return el("dl", { class: "facts" }, rows.filter((row) => row).flatMap(([term, value]) => [
            el("dt", {}, term), el("dd", {}, value === null || value === undefined || value === "" ? "—" : value),
          ]));
        }

        function table(caption, headings, rows, options) {
          options = options || {};
          return el("div", { class: "table-wrap", role: "region", "aria-labelledby": options.id ? options.id + "-caption" : null, tabindex: "0" },
            el("table", { id: options.id || null },
              el("caption", { class: options.hideCaption ? "visually-hidden" : null, id: options.id ? options.id + "-caption" : null }, caption),
              el("thead", {}, el("tr", {}, headings.map((heading) => el("th", { scope: "col" }, heading)))),
              el("tbody", {}, rows.length ? rows : [el("tr", {}, el("td", { colspan: headings.length }, options.empty || "Nothing yet."))])));
        }

        function image(path, alt, className) {
          return el("img", { src: consoleBase + path, alt, class: className || null, loading: "lazy", decoding: "async" });
        }

        async function templateList() {
          if (!templateList.cached) templateList.cached = (await api("GET", "/api/v1/templates")).templates;
          return templateList.cached;
        }

        function templateSelect(id, templates, selected, anyLabel) {
          const select = el("select", { id, name: "template" });
          if (anyLabel) select.append(el("option", { value: "" }, anyLabel));
          for (const template of templates.filter((t) => !t.error)) {
            select.append(el("option", { value: template.name, selected: template.name === selected }, template.name));
          }
          return select;
        }

        function field(label, control, help) {
          const id = control.id;
          if (help) control.setAttribute("aria-describedby", id + "-help");
          return el("div", { class: "field" }, el("label", { for: id }, label), control,
            help ? el("p", { class: "muted", id: id + "-help" }, help) : null);
        }

        async function signOut() {
          try {
            await api("DELETE", "/console/session", undefined, { quiet: true });
          } catch (error) {
            // A session already ended (401) leaves nothing to end. Any other failure may leave it open, with its
            // cookie: said, and the page stays, so that nobody walks away from a console still signed in.
            if (error.status !== 401) { show(problem(error)); return; }
          }
          location.assign(consoleBase + "/console/sign-in");
        }

        function randomKey() {
          const bytes = new Uint8Array(16);
          crypto.getRandomValues(bytes);
          return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
        }
        """#

    static let start = #"""
        async function startConsole() {
          if (consolePage === "sign-in") { pages["sign-in"](); return; }
          try {
            session = await api("GET", "/console/session");
          } catch (error) {
            // 401 goes to the sign-in page; anything else (too many requests, the server out of reach) is said, not
            // left as "Loading…".
            if (error.status !== 401) show(problem(error));
            return;
          }
          document.getElementById("signed-in-as").textContent = "Signed in as " + session.signedInAs;
          document.getElementById("sign-out").addEventListener("click", signOut);
          try {
            await pages[consolePage]();
          } catch (error) {
            if (error.status !== 401) show(problem(error));
          }
        }
        startConsole();
        """#

    static let signIn = #"""
        pages["sign-in"] = function () {
          const next = new URLSearchParams(location.search).get("next");
          let target = consoleBase + "/console/templates";
          if (next) {
            const url = new URL(next, location.origin);
            if (url.origin === location.origin && url.pathname.startsWith(consoleBase + "/console/")) target = url.pathname + url.search;
          }
          const input = el("input", { id: "token", name: "token", type: "password", autocomplete: "current-password", required: true, spellcheck: "false" });
          const failure = el("div", { id: "sign-in-problem" });
          const button = el("button", { type: "submit", id: "sign-in" }, "Sign in");
          const form = el("form", { class: "card signin", "aria-labelledby": "page-title" },
            el("input", { type: "text", name: "username", autocomplete: "username", value: "tessera-console", hidden: true }),
            field("Admin token or API key", input,
              "The administrator's token, or an API key made for your brand (it starts with tsk_). The console then keeps you signed in for 12 hours on this browser."),
            el("div", { class: "actions" }, button), failure);
          form.addEventListener("submit", async (event) => {
            event.preventDefault();
            failure.replaceChildren();
            if (!input.value.trim()) { failure.append(problem("Enter the admin token or an API key.")); input.focus(); return; }
            button.disabled = true;
            try {
              const response = await fetch(consoleBase + "/console/session", {
                method: "POST", credentials: "same-origin", headers: { "Content-Type": "application/json", "Accept": "application/json" },
                body: JSON.stringify({ token: input.value }),
              });
              if (response.ok) { location.assign(target); return; }
              const data = await response.json().catch(() => null);
              failure.append(problem(response.status === 401 ? "That is neither the admin token nor a valid API key."
                : (data && data.error && data.error.message) || "Signing in failed (" + response.status + ")."));
            } catch (error) {
              failure.append(problem("The server cannot be reached: check the connection and try again."));
            }
            button.disabled = false;
            input.focus();
          });
          const loopback = ["localhost", "127.0.0.1", "[::1]"].includes(location.hostname) || location.hostname.startsWith("127.");
          const insecure = location.protocol === "http:" && !loopback
            ? el("p", { class: "problem", id: "needs-https" }, "This page was opened over plain http: the console's session cookie is Secure, so the browser will not keep it. Open the console over https (or on this computer's loopback address for development).")
            : null;
          show(...[insecure, form].filter((node) => node));
          input.focus();
        };
        """#
}
