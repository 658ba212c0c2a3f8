extension ConsoleScript {
    static let analytics = #"""
        const svgNS = "http://www.w3.org/2000/svg";
        function svg(tag, attributes, ...children) {
          const node = document.createElementNS(svgNS, tag);
          for (const [name, value] of Object.entries(attributes || {})) node.setAttribute(name, String(value));
          for (const child of children) node.append(child instanceof Node ? child : document.createTextNode(String(child)));
          return node;
        }

        /** A day or week bucket's first day: the server's buckets start at midnight UTC, so read in UTC (in the
            browser's own zone, west of Greenwich, every day would show as the one before). */
        function bucketDay(start, options) {
          const date = new Date(start);
          return isNaN(date) ? start : date.toLocaleDateString(undefined, { ...options, timeZone: "UTC" });
        }

        /** Installs and removals as bars, active passes as a line, per bucket; drawn here, no charting library. */
        function chart(buckets, interval) {
          const width = 720, height = 260, left = 44, bottom = 36, top = 12, right = 12;
          const plotWidth = width - left - right, plotHeight = height - top - bottom;
          const highest = Math.max(1, ...buckets.map((b) => Math.max(b.installs, b.removals, b.activePasses)));
          const y = (value) => top + plotHeight - (value / highest) * plotHeight;
          const slot = plotWidth / Math.max(1, buckets.length);
          const bar = Math.max(1, slot / 3);
          const label = (start) => {
            const date = new Date(start);
            return interval === "hour" ? date.toLocaleTimeString(undefined, { hour: "2-digit", minute: "2-digit" })
              : bucketDay(start, { month: "short", day: "numeric" });
          };
          const totalInstalls = buckets.reduce((sum, b) => sum + b.installs, 0);
          const totalRemovals = buckets.reduce((sum, b) => sum + b.removals, 0);
          const root = svg("svg", { viewBox: "0 0 " + width + " " + height, role: "img", "aria-labelledby": "chart-title chart-desc" },
            svg("title", { id: "chart-title" }, "Installs, removals and active passes"),
            svg("desc", { id: "chart-desc" }, totalInstalls + " installs and " + totalRemovals + " removals over " + buckets.length + " periods; the table below has every number."));
          for (const step of [0, 0.5, 1]) {
            const value = Math.round(highest * step);
            root.append(svg("line", { x1: left, x2: width - right, y1: y(value), y2: y(value) }),
              svg("text", { x: left - 6, y: y(value) + 4, "text-anchor": "end" }, value));
          }
          const points = [];
          buckets.forEach((bucket, index) => {
            const x = left + index * slot + slot / 2;
            root.append(svg("rect", { class: "installs", x: x - bar, y: y(bucket.installs), width: bar, height: top + plotHeight - y(bucket.installs) }),
              svg("rect", { class: "removals", x, y: y(bucket.removals), width: bar, height: top + plotHeight - y(bucket.removals) }));
            points.push(x + "," + y(bucket.activePasses));
            const every = Math.ceil(buckets.length / 8);
            if (index % every === 0) root.append(svg("text", { x, y: height - bottom + 16, "text-anchor": "middle" }, label(bucket.start)));
          });
          if (points.length) root.append(svg("polyline", { class: "active", points: points.join(" ") }));
          return el("figure", { class: "chart" }, root,
            el("ul", { class: "legend", "aria-hidden": "true" },
              el("li", {}, el("span", { class: "swatch installs" }), "Installs"), el("li", {}, el("span", { class: "swatch removals" }), "Removals"),
              el("li", {}, el("span", { class: "swatch active" }), "Active passes")));
        }

        pages.analytics = async function () {
          const params = new URLSearchParams(location.search);
          const templates = await templateList();
          const interval = ["hour", "day", "week"].includes(params.get("interval")) ? params.get("interval") : "day";
          const days = interval === "hour" ? 2 : interval === "week" ? 90 : 7;
          const to = new Date();
          const from = new Date(to.getTime() - days * 86400000);
          const query = new URLSearchParams({ interval, from: from.toISOString(), to: to.toISOString() });
          // An API key's figures are those of one of its templates at a time (the server answers every template's only
          // to the administrator): its first template unless one is chosen.
          const usable = templates.filter((t) => !t.error);
          const chosen = params.get("template") || (session.isAdmin ? "" : (usable[0] ? usable[0].name : ""));
          if (!chosen && !session.isAdmin) {
            show(el("p", { id: "analytics-none" }, "There is no template of this key's brands to chart yet."));
            return;
          }
          if (chosen) query.set("template", chosen);
          const form = el("form", { method: "get", action: consoleBase + "/console/analytics", "aria-label": "Choose what to chart" },
            el("div", { class: "form-grid" },
              field("Template", templateSelect("analytics-template", templates, chosen, session.isAdmin ? "Every template" : null)),
              field("Period", el("select", { id: "analytics-interval", name: "interval" },
                [["hour", "Last 2 days, by hour"], ["day", "Last 7 days, by day"], ["week", "Last 90 days, by week"]]
                  .map(([value, text]) => el("option", { value, selected: value === interval }, text))))),
            el("div", { class: "actions" }, el("button", { type: "submit", id: "show-analytics" }, "Show")));
          const answer = await api("GET", "/api/v1/analytics/passes?" + query.toString());
          const totals = answer.totals || {};
          const rows = answer.buckets.map((bucket) => el("tr", {},
            el("th", { scope: "row" }, interval === "hour" ? formatDate(bucket.start)
              : bucketDay(bucket.start, { dateStyle: "medium" })), el("td", {}, formatNumber(bucket.installs)),
            el("td", {}, formatNumber(bucket.removals)), el("td", {}, formatNumber(bucket.activePasses)),
            el("td", {}, formatNumber(bucket.activeDevices)), el("td", {}, formatNumber(bucket.updates)),
            el("td", {}, formatNumber(bucket.pushesSent))));
          show(form,
            el("section", { class: "card", "aria-labelledby": "totals-title" }, el("h2", { id: "totals-title" }, "Totals"),
              facts([["Installs", el("span", { id: "total-installs" }, formatNumber(totals.installs))],
                ["Removals", el("span", { id: "total-removals" }, formatNumber(totals.removals))],
                ["Updates", formatNumber(totals.updates)], ["Pushes sent", formatNumber(totals.pushesSent)]])),
            el("section", { class: "card", "aria-labelledby": "chart-heading" }, el("h2", { id: "chart-heading" }, "Over time"),
              chart(answer.buckets, interval),
              table("Every period", [interval === "hour" ? "Hour starting" : "Day starting (UTC)", "Installs", "Removals", "Active passes", "Active devices", "Updates", "Pushes sent"], rows,
                { id: "analytics-table" })));
        };
        """#

    static let events = #"""
        const outcomes = { delivered: ["Delivered", "ok"], refused: ["Refused", "critical"], retrying: ["Retrying", "warn"], abandoned: ["Given up", "critical"] };

        // The endpoint, the Retry button and its status line are made once and kept: the refresh every 5 s changes
        // only the texts and the table's rows, so a focused button, a click on its way and the status stay put.
        async function webhookStatus(box) {
          // Read again in 5 s whatever happens below: one failed read must not stop the status for good.
          window.clearTimeout(webhookStatus.timer);
          webhookStatus.timer = window.setTimeout(() => webhookStatus(box).catch(() => {}), 5000);
          const answer = await api("GET", "/api/v1/webhooks");
          if (!answer.endpoint) {
            // Nothing to follow: configured only at start-up.
            window.clearTimeout(webhookStatus.timer);
            box.webhook = null;
            box.replaceChildren(el("p", {}, "No webhook endpoint is configured: start the server with --webhook-url and --webhook-secret-file to have every event posted, signed, to your system. The events below can also be read with GET /api/v1/events."));
            return;
          }
          if (!box.webhook) {
            const endpoint = el("span", { id: "webhook-endpoint" });
            const state = el("span", { id: "webhook-state" });
            const retried = el("p", { id: "webhook-retried", role: "status", "aria-live": "polite" });
            const retry = el("button", { type: "button", id: "webhook-retry", class: "secondary" }, "Retry now");
            retry.addEventListener("click", async () => {
              try {
                await api("POST", "/api/v1/webhooks/retry");
                retried.textContent = "Asked: the waiting event is posted again within a second.";
              } catch (error) { retried.textContent = error.message; }
              window.setTimeout(() => webhookStatus(box).catch(() => {}), 1500);
            });
            const deliveries = table("Recent deliveries, newest first", ["Time", "Event", "Result", "Status", "Details"], [],
              { id: "webhook-deliveries", empty: "Nothing posted yet." });
            box.replaceChildren(facts([["Endpoint", endpoint], ["State", state]]), el("div", { class: "actions" }, retry), retried,
              deliveries);
            const rows = deliveries.querySelector("tbody");
            box.webhook = { endpoint, state, rows, empty: rows.firstElementChild };
          }
          const rows = answer.deliveries.map((attempt) => {
            const [word, level] = outcomes[attempt.outcome] || [attempt.outcome, ""];
            return el("tr", {}, el("td", {}, formatDate(attempt.attemptedAt)), el("td", {}, attempt.eventType + " #" + attempt.eventId),
              el("td", {}, el("span", { class: "badge " + level }, word)), el("td", {}, attempt.status ? String(attempt.status) : "—"),
              el("td", {}, attempt.detail || "", attempt.nextAttemptAt ? " Next try " + formatDate(attempt.nextAttemptAt) + "." : ""));
          });
          const waiting = answer.deliveries.length && answer.deliveries[0].outcome === "retrying";
          box.webhook.endpoint.textContent = answer.endpoint;
          box.webhook.state.textContent = waiting ? "An event is waiting to be retried" : "Delivering";
          box.webhook.rows.replaceChildren(...(rows.length ? rows : [box.webhook.empty]));
        }

        pages.events = async function () {
          const params = new URLSearchParams(location.search);
          const chosen = params.get("type") || "";
          const types = ["pass.created", "pass.registered", "pass.unregistered", "pass.personalized", "pass.updated", "pass.voided",
            "pass.unvoided", "pass.redeemed", "order.created", "order.registered", "order.unregistered", "order.updated", "campaign.finished"];
          const form = el("form", { method: "get", action: consoleBase + "/console/events", "aria-label": "Filter events" },
            el("div", { class: "form-grid" },
              field("Type", el("select", { id: "event-type", name: "type" }, el("option", { value: "" }, "Every type"),
                types.map((type) => el("option", { value: type, selected: type === chosen }, type)))),
              field("From", el("select", { id: "event-from", name: "from" },
                [["now", "What happens from now on"], ["start", "The start of the kept log"]]
                  .map(([value, text]) => el("option", { value, selected: (params.get("from") || "now") === value }, text))))),
            el("div", { class: "actions" }, el("button", { type: "submit", id: "filter-events" }, "Show")));
          const body = el("tbody", {});
          const empty = el("tr", {}, el("td", { colspan: "4" }, "Waiting for events…"));
          body.append(empty);
          const log = el("div", { class: "table-wrap", role: "region", "aria-labelledby": "events-caption", tabindex: "0" },
            el("table", { id: "events-table" }, el("caption", { id: "events-caption", class: "visually-hidden" }, "Events, newest first"),
              el("thead", {}, el("tr", {}, ["Time", "Type", "Item", "Details"].map((h) => el("th", { scope: "col" }, h)))), body));
          const follow = el("p", { id: "events-live", role: "status", "aria-live": "polite", class: "muted" }, "");
          const hooks = el("div", { id: "webhook-status" });
          show(
            el("section", { class: "card", "aria-labelledby": "webhook-title" }, el("h2", { id: "webhook-title" }, "Webhooks"), hooks),
            el("section", { class: "card", "aria-labelledby": "events-title" }, el("h2", { id: "events-title" }, "Events"), form, follow, log));
          if (session.isAdmin) await webhookStatus(hooks);
          else hooks.append(el("p", {}, "The webhook endpoint is the administrator's: every event is posted to it, signed, in order, and retried for 24 hours."));
          let cursor = (params.get("from") || "now") === "now" ? (await api("GET", "/api/v1/events?after=latest")).nextCursor : null;
          async function poll() {
            const query = new URLSearchParams({ limit: "200" });
            if (cursor) query.set("after", cursor);
            if (chosen) query.set("type", chosen);
            let page;
            try {
              page = await api("GET", "/api/v1/events?" + query.toString());
            } catch (error) {
              // Followed again in 5 s from the same place: one failed read (the network, a restart) does not end it.
              follow.textContent = "The log could not be read (" + error.message + "); trying again.";
              window.setTimeout(() => poll().catch(() => {}), 5000);
              return;
            }
            cursor = page.nextCursor;
            const fresh = [];
            for (const event of page.events) {
              const data = event.data || {};
              const item = data.serialNumber ? data.serialNumber : data.orderIdentifier || data.campaign || "";
              const details = Object.entries(data).filter(([key]) => !["passTypeIdentifier", "serialNumber", "orderTypeIdentifier", "orderIdentifier"].includes(key))
                .map(([key, value]) => key + ": " + (typeof value === "object" ? JSON.stringify(value) : value)).join("; ");
              const link = data.serialNumber && data.passTypeIdentifier
                ? el("a", { href: consoleBase + "/console/passes/" + enc(data.passTypeIdentifier) + "/" + enc(data.serialNumber) }, item) : item;
              fresh.unshift(el("tr", {}, el("td", {}, formatDate(event.createdAt)), el("td", {}, event.type), el("td", {}, link), el("td", {}, details)));
            }
            if (page.events.length) {
              // New rows go on top and the oldest beyond 200 go; the others stay put, so a focused link keeps its focus.
              empty.remove();
              body.prepend(...fresh);
              while (body.children.length > 200) body.lastElementChild.remove();
              follow.textContent = page.events.length === 1 ? "1 new event." : page.events.length + " new events.";
            }
            window.setTimeout(() => poll().catch(() => {}), page.events.length === 200 ? 100 : 2000);
          }
          await poll();
        };
        """#

    static let keys = #"""
        pages.keys = async function () {
          const identities = await api("GET", "/api/v1/identities");
          const identityRows = identities.identities.map((identity) => {
            const days = identity.daysLeft;
            const level = days === null || days === undefined ? "" : days < 7 ? "critical" : days < 30 ? "warn" : "ok";
            const text = days === null || days === undefined ? "—" : days < 0 ? "Expired" : days + (days === 1 ? " day" : " days");
            return el("tr", {}, el("td", {}, identity.identifier), el("td", {}, identity.teamIdentifier || "—"),
              el("td", {}, identity.templates.join(", ") || "—"), el("td", {}, formatDate(identity.expiresAt)),
              el("td", {}, el("span", { class: "badge " + level }, text), identity.problem ? el("div", { class: "muted" }, identity.problem) : null));
          });
          const sections = [el("section", { class: "card", "aria-labelledby": "identities-title" }, el("h2", { id: "identities-title" }, "Signing certificates"),
            table("Signing certificates", ["Pass type", "Team", "Templates", "Expires", "Days left"], identityRows,
              { id: "identities-table", hideCaption: true, empty: "No signing identity." }),
            el("p", { class: "muted" }, "Amber from 30 days before a certificate expires, red from 7: renew it at developer.apple.com and replace the file; the server reloads it."))];
          if (!session.isAdmin) {
            sections.push(el("section", { class: "card", "aria-labelledby": "keys-title" }, el("h2", { id: "keys-title" }, "API keys"),
              el("p", {}, "You are signed in with the API key " + session.signedInAs + ": keys are made and revoked by the administrator.")));
            show(...sections);
            return;
          }
          const list = el("div", { id: "keys-list" });
          const made = el("div", { id: "key-made", role: "status", "aria-live": "polite" });
          const name = el("input", { id: "key-name", autocomplete: "off", required: true });
          const identifiers = el("input", { id: "key-identifiers", autocomplete: "off", required: true, placeholder: "pass.com.example.*" });
          const permissions = ["read", "write", "redeem"].map((permission) => el("div", {},
            el("input", { type: "checkbox", id: "key-permission-" + permission, value: permission, checked: permission === "read" }),
            el("label", { for: "key-permission-" + permission, class: "inline" }, permission)));
          const form = el("form", { id: "key-form", "aria-labelledby": "new-key-title" }, el("h3", { id: "new-key-title" }, "New key"),
            el("div", { class: "form-grid" }, field("Name", name), field("Pass types", identifiers, "Separated by spaces; end with * for every type under a prefix.")),
            el("fieldset", {}, el("legend", {}, "Permissions"), permissions),
            el("div", { class: "actions" }, el("button", { type: "submit", id: "create-key" }, "Make key")), made);
          form.addEventListener("submit", async (event) => {
            event.preventDefault();
            made.replaceChildren();
            const scope = { identifiers: identifiers.value.split(/[\s,]+/).filter((x) => x),
              permissions: [...form.querySelectorAll("input[type=checkbox]:checked")].map((box) => box.value) };
            // One key per click: a second click while the first is under way would make a second live secret.
            const button = form.querySelector("#create-key");
            button.disabled = true;
            try {
              const key = await api("POST", "/api/v1/keys", { name: name.value, scope });
              made.append(el("div", { class: "notice" }, el("p", {}, "Key " + key.name + " made. Copy its secret now: it is not shown again."),
                el("code", { class: "secret", id: "key-secret" }, key.secret)));
            } catch (error) { made.append(problem(error)); } finally { button.disabled = false; }
            // The secret stays shown if the list cannot be read again now.
            refresh().catch(() => {});
          });
          async function refresh() {
            const page = await api("GET", "/api/v1/keys");
            list.replaceChildren(table("API keys", ["Name", "Pass types", "Permissions", "Made", ""], page.keys.map((key) => el("tr", { id: "key-" + key.id },
              el("td", {}, key.name), el("td", {}, key.scope.identifiers.join(" ")), el("td", {}, key.scope.permissions.join(", ")),
              el("td", {}, formatDate(key.createdAt)),
              el("td", {}, el("button", { type: "button", class: "danger", id: "revoke-" + key.id, "aria-label": "Revoke key " + key.name,
                onclick: async (event) => {
                  const button = event.currentTarget;
                  if (button.dataset.confirm !== "yes") { button.dataset.confirm = "yes"; button.textContent = "Revoke now"; return; }
                  try {
                    await api("DELETE", "/api/v1/keys/" + enc(key.id));
                    announce("Key " + key.name + " revoked: its sessions have ended.");
                  } catch (error) { announce(error.message); }
                  refresh();
                } }, "Revoke")))), { id: "keys-table", hideCaption: true, empty: "No API keys." }));
          }
          sections.push(el("section", { class: "card", "aria-labelledby": "keys-title" }, el("h2", { id: "keys-title" }, "API keys"), list, form));
          show(...sections);
          await refresh();
        };
        """#
}
