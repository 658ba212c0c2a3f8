extension ConsoleScript {
    static let campaigns = #"""
        const campaignStates = { scheduled: "Scheduled", running: "Running", done: "Done", cancelled: "Cancelled", failed: "Failed" };

        function campaignChange(campaign) {
          const spec = campaign;
          if (spec.republishTemplate) return "Republish from the template";
          if (spec.void) return "Void";
          if (spec.unvoid) return "Unvoid";
          return "Change fields";
        }

        /** Counts the passes a selection matches, as far as 10 pages of the search read (`more`: there are further
            passes to look at, so the count is a lower bound): the voided ones for an unvoid
            campaign (the only ones it selects), the others otherwise. */
        async function countMatches(select, voided) {
          const query = new URLSearchParams({ template: select.template, limit: "1000", voided: voided ? "true" : "false" });
          for (const [key, value] of Object.entries(select.fields || {})) query.set("field." + key, value);
          let count = 0;
          for (let page = 0; page < 10; page++) {
            const found = await api("GET", "/api/v1/passes?" + query.toString());
            count += found.passes.length;
            if (!found.nextCursor) return { count, more: false };
            query.set("cursor", found.nextCursor);
          }
          return { count, more: true };
        }

        pages.campaigns = async function () {
          const params = new URLSearchParams(location.search);
          const templates = (await templateList()).filter((t) => !t.error);
          const list = el("div", { id: "campaign-list" });
          const live = el("div", { id: "campaign-progress", role: "status", "aria-live": "polite" });
          const sections = [];

          if (can("write")) {
            const templateChoice = templateSelect("campaign-template", templates, params.get("template"), "Choose a template");
            templateChoice.required = true;
            const matchKey = el("input", { id: "campaign-match-key", autocomplete: "off" });
            const matchValue = el("input", { id: "campaign-match-value", autocomplete: "off" });
            const count = el("p", { id: "campaign-count", "aria-live": "polite" }, "");
            const changeKinds = [["data", "Change field values"], ["republish", "Republish from the template's current version"], ["void", "Void the passes"], ["unvoid", "Unvoid voided passes"]];
            const chosen = params.get("change") === "republish" ? "republish" : "data";
            const radios = changeKinds.map(([value, label]) => el("div", {},
              el("input", { type: "radio", name: "change", id: "change-" + value, value, checked: value === chosen }),
              el("label", { for: "change-" + value, class: "inline" }, label)));
            const checkedChange = () => radios.map((row) => row.querySelector("input")).find((input) => input.checked).value;
            const fieldKey = el("select", { id: "campaign-field-key" });
            const fieldValue = el("input", { id: "campaign-field-value", autocomplete: "off" });
            const dataFields = el("div", { id: "campaign-data", class: "form-grid" }, field("Field", fieldKey), field("New value", fieldValue));
            const message = el("textarea", { id: "campaign-message", rows: "2", maxlength: "500" });
            const when = el("input", { id: "campaign-at", type: "datetime-local", step: "1" });
            const result = el("div", { id: "campaign-result" });
            const submit = el("button", { type: "submit", id: "start-campaign" }, "Start campaign");
            let composed = { body: null, key: null };

            const fillKeys = () => {
              const template = templates.find((t) => t.name === templateChoice.value);
              fieldKey.replaceChildren(...((template && template.fields) || []).map((key) => el("option", { value: key }, key)));
            };
            const selection = () => {
              const select = { template: templateChoice.value };
              if (matchKey.value.trim()) select.fields = { [matchKey.value.trim()]: matchValue.value };
              return select;
            };
            let counting = 0;
            const recount = async () => {
              const mine = ++counting;
              if (!templateChoice.value) { count.textContent = "Choose a template to see how many passes match."; return; }
              count.textContent = "Counting matching passes…";
              try {
                const found = await countMatches(selection(), checkedChange() === "unvoid");
                if (mine !== counting) return;
                count.textContent = (found.more ? "At least " : "") + formatNumber(found.count) + (found.count === 1 && !found.more ? " pass matches." : " passes match.");
              } catch (error) {
                if (mine === counting) count.textContent = error.message;
              }
            };
            const syncChange = () => {
              dataFields.hidden = checkedChange() !== "data";
            };
            const syncWhen = () => { submit.textContent = when.value ? "Schedule campaign" : "Start campaign"; };
            templateChoice.addEventListener("change", () => { fillKeys(); recount(); });
            matchKey.addEventListener("change", recount);
            matchValue.addEventListener("change", recount);
            when.addEventListener("input", syncWhen);

            const form = el("form", { id: "campaign-form", "aria-labelledby": "compose-title" },
              el("h2", { id: "compose-title" }, "New campaign"),
              el("fieldset", {}, el("legend", {}, "Which passes"),
                el("div", { class: "form-grid" }, field("Template", templateChoice),
                  field("Only where field", matchKey, "Optional: a field key, such as date."), field("Has the value", matchValue)),
                count),
              el("fieldset", {}, el("legend", {}, "The change"), radios, dataFields),
              el("fieldset", {}, el("legend", {}, "Message and time"),
                field("Lock-screen message", message, "Optional: what Wallet shows on the holder's lock screen with this change."),
                field("Apply at", when, "Leave empty to apply now; a time in your browser's time zone schedules it.")),
              el("div", { class: "actions" }, submit), result);
            form.addEventListener("change", (event) => {
              if (event.target.name !== "change") return;
              syncChange();
              recount();
            });
            form.addEventListener("submit", async (event) => {
              event.preventDefault();
              result.replaceChildren();
              if (!templateChoice.value) { result.append(problem("Choose the template whose passes change.")); templateChoice.focus(); return; }
              const kind = checkedChange();
              const body = { select: selection() };
              if (kind === "data") {
                if (!fieldKey.value) { result.append(problem("Pick the field to change.")); fieldKey.focus(); return; }
                // A field that holds a number (an amount, points) is given one, for Wallet to format it.
                const template = templates.find((t) => t.name === templateChoice.value);
                let value = fieldValue.value;
                if (template && (template.numericFields || []).includes(fieldKey.value)) {
                  if (value.trim() === "" || !isFinite(Number(value))) {
                    result.append(problem("The field " + fieldKey.value + " holds a number: give one, such as 25 or 12.50."));
                    fieldValue.focus();
                    return;
                  }
                  value = Number(value);
                }
                body.data = { fields: { [fieldKey.value]: value } };
              } else if (kind === "republish") body.republishTemplate = true;
              else if (kind === "void") body.void = true;
              else body.unvoid = true;
              if (message.value.trim()) body.message = message.value.trim();
              if (when.value) body.scheduledAt = new Date(when.value).toISOString();
              // One key per campaign composed: sent again after an answer that was lost (the server out of reach),
              // the same body gives back the campaign already started, not a second push to every holder.
              const text = JSON.stringify(body);
              if (text !== composed.body) composed = { body: text, key: randomKey() };
              submit.disabled = true;
              try {
                const campaign = await api("POST", "/api/v1/campaigns", body, { idempotencyKey: composed.key });
                composed = { body: null, key: null };
                result.append(el("p", { class: "notice" }, (campaign.state === "scheduled" ? "Scheduled for " + formatDate(campaign.scheduledAt) : "Started") + ": campaign " + campaign.id + "."));
              } catch (error) {
                result.append(problem(error));
              }
              submit.disabled = false;
              // The list below shows it; a list that cannot be read now is read again by its own timer.
              refresh().catch(() => {});
            });
            fillKeys();
            syncChange();
            syncWhen();
            sections.push(el("section", { class: "card" }, form));
            recount();
          }

          sections.push(el("section", { class: "card", "aria-labelledby": "campaigns-title" }, el("h2", { id: "campaigns-title" }, "Campaigns"), live, list));
          show(...sections);

          // The table and each campaign's row are made once and then changed in place: the list is read again every
          // second while a campaign runs, and a Cancel button drawn anew each time would lose its focus and any click
          // on its way.
          const listed = table("Campaigns, newest first", ["Created", "State", "Applies", "Matched", "Changed", "Failed", "Pushes sent", ""], [],
            { id: "campaigns-table", hideCaption: true, empty: "No campaigns yet." });
          const body = listed.querySelector("tbody");
          const empty = body.firstElementChild;
          list.replaceChildren(listed);
          const rowsById = new Map();

          function campaignRow(campaign) {
            const cells = { created: el("td", {}), state: el("td", {}), applies: el("td", {}), matched: el("td", { class: "matched" }),
              changed: el("td", { class: "changed" }), failed: el("td", {}), pushes: el("td", { class: "pushes" }), action: el("td", {}) };
            return { row: el("tr", { id: "campaign-" + campaign.id }, Object.values(cells)), cells, cancel: null };
          }

          function fillRow(entry, campaign) {
            const { row, cells } = entry;
            row.dataset.state = campaign.state;
            cells.created.textContent = formatDate(campaign.createdAt);
            const progress = campaign.state === "running" && campaign.matched
              ? el("progress", { max: campaign.matched, value: campaign.changed + campaign.failed, "aria-label": "Progress of campaign " + campaign.id }) : null;
            cells.state.replaceChildren(el("span", { class: "badge " + (campaign.state === "done" ? "ok" : campaign.state === "failed" ? "critical" : "") },
              campaignStates[campaign.state] || campaign.state), ...(progress ? [progress] : []));
            cells.applies.textContent = campaign.scheduledAt ? formatDate(campaign.scheduledAt) : "Now";
            cells.matched.textContent = formatNumber(campaign.matched);
            cells.changed.textContent = formatNumber(campaign.changed);
            // Why passes failed (each serial number's reason) or the campaign did (the reason without one): drawn
            // again only when they change, so a list opened by the reader stays open as the row is read again.
            const reasons = campaign.errors || [];
            const said = reasons.map((e) => e.serialNumber + "\u0000" + e.reason).join("\n");
            if (entry.reasons !== said || !entry.failedCount) {
              entry.reasons = said;
              entry.failedCount = el("span", {});
              cells.failed.replaceChildren(entry.failedCount, ...(reasons.length ? [el("details", { class: "reasons" },
                el("summary", {}, reasons.length === 1 ? "Why" : "Why (" + reasons.length + ")"),
                el("ul", {}, reasons.map((e) => el("li", {}, e.serialNumber ? e.serialNumber + ": " + e.reason : e.reason))))] : []));
            }
            entry.failedCount.textContent = formatNumber(campaign.failed);
            cells.pushes.textContent = formatNumber(campaign.pushesSent);
            const active = campaign.state === "running" || campaign.state === "scheduled";
            if (active && can("write") && !entry.cancel) {
              entry.cancel = el("button", { type: "button", class: "secondary", id: "cancel-" + campaign.id,
                "aria-label": "Cancel campaign " + campaign.id, onclick: async () => {
                  try {
                    const after = await api("DELETE", "/api/v1/campaigns/" + enc(campaign.id));
                    announce("Campaign cancelled: " + formatNumber(after.changed) + " passes had changed.");
                  } catch (error) { announce(error.message); }
                  refresh();
                } }, "Cancel");
              cells.action.replaceChildren(entry.cancel);
            } else if (!active && entry.cancel) {
              entry.cancel = null;
              cells.action.replaceChildren();
            }
          }

          const finished = new Set();
          let first = true;
          async function refresh() {
            // Read again in 5 s whatever happens below: one failed read (the network, a restart) must not freeze the
            // list at "Running" for good.
            window.clearTimeout(refresh.timer);
            refresh.timer = window.setTimeout(() => refresh().catch(() => {}), 5000);
            const page = await api("GET", "/api/v1/campaigns?limit=25");
            const wanted = page.campaigns.map((campaign) => {
              let entry = rowsById.get(campaign.id);
              if (!entry) { entry = campaignRow(campaign); rowsById.set(campaign.id, entry); }
              fillRow(entry, campaign);
              return entry.row;
            });
            const kept = new Set(page.campaigns.map((campaign) => campaign.id));
            for (const [id, entry] of rowsById) {
              if (!kept.has(id)) { entry.row.remove(); rowsById.delete(id); }
            }
            // Rows already in their place are left where they are (moving one would take its focus).
            let next = body.firstElementChild;
            for (const row of wanted) {
              if (row === next) next = next.nextElementSibling;
              else body.insertBefore(row, next);
            }
            while (next) { const after = next.nextElementSibling; next.remove(); next = after; }
            if (!wanted.length) body.replaceChildren(empty);
            for (const campaign of page.campaigns) {
              if (!["done", "failed", "cancelled"].includes(campaign.state) || finished.has(campaign.id)) continue;
              finished.add(campaign.id);
              if (!first) live.replaceChildren(el("p", { class: "notice" }, "Campaign " + campaign.id + " " + (campaignStates[campaign.state] || campaign.state).toLowerCase() +
                ": " + formatNumber(campaign.changed) + " passes changed, " + formatNumber(campaign.pushesSent) + " pushes sent."));
            }
            first = false;
            const busy = page.campaigns.some((c) => c.state === "running" || c.state === "scheduled");
            window.clearTimeout(refresh.timer);
            refresh.timer = window.setTimeout(() => refresh().catch(() => {}), busy ? 1000 : 5000);
          }
          await refresh();
        };
        """#
}
