extension ConsoleScript {
    static let pass = #"""
        function fieldText(value) {
          if (value === null || value === undefined) return "";
          return typeof value === "object" ? JSON.stringify(value) : String(value);
        }

        /** The value an edited field's text stands for, of the kind its value was: a number stays a number, true or
            false a Boolean, an object or array the JSON written (text that does not read as such stays text). */
        function fieldValue(text, original) {
          if (typeof original === "number" && text.trim() !== "" && !isNaN(Number(text))) return Number(text);
          if (typeof original === "boolean" && (text.trim() === "true" || text.trim() === "false")) return text.trim() === "true";
          if (original !== null && typeof original === "object") {
            try { const parsed = JSON.parse(text); if (parsed !== null && typeof parsed === "object") return parsed; } catch (error) {}
          }
          return text;
        }

        pages.pass = async function () {
          const parts = location.pathname.slice((consoleBase + "/console/passes/").length).split("/");
          const type = decodeURIComponent(parts[0] || "");
          const serial = decodeURIComponent(parts[1] || "");
          const path = "/api/v1/passes/" + enc(type) + "/" + enc(serial);
          document.title = "Pass " + serial + " · Tessera console";
          document.getElementById("page-title").textContent = "Pass " + serial;
          let pass = await api("GET", path);
          const templates = await templateList();
          const template = templates.find((t) => t.name === pass.template);
          const keys = template && template.fields ? template.fields : Object.keys(pass.fields || {});

          const preview = el("div", { class: "previews pass-preview" });
          const details = el("div", {});
          const saved = el("div", { id: "saved", role: "status", "aria-live": "polite" });
          const draw = () => {
            preview.replaceChildren(
              image(path + "/preview?side=front&version=" + enc(pass.updateTag), "Front of pass " + serial + " as its holder sees it"),
              image(path + "/preview?side=back&version=" + enc(pass.updateTag), "Back of pass " + serial));
            details.replaceChildren(facts([
              ["Template", pass.template], ["Pass type", pass.passTypeIdentifier],
              ["Version", el("span", { id: "pass-version" }, pass.updateTag)], ["Last changed", pass.lastModified ? formatDate(pass.lastModified) : null],
              ["Devices registered", el("span", { id: "pass-devices" }, formatNumber(pass.registrations))],
              ["Redemptions", pass.redemptions ? formatNumber(pass.redemptions) + " (first " + formatDate(pass.redeemedAt) + ")" : "None"],
              ["State", el("span", { id: "pass-state", class: "badge " + (pass.voided ? "critical" : "ok") }, pass.voided ? "Voided" : "Active")],
              pass.google ? ["Google Wallet", pass.google.state + ", saved " + formatNumber(pass.google.saves) + " times"] : null,
            ]));
            voidButton.hidden = pass.voided || !can("write");
            unvoidButton.hidden = !pass.voided || !can("write");
            // Shown again, the Void button asks again: a second click long after the first must not void at once.
            delete voidButton.dataset.confirm;
            voidButton.textContent = "Void this pass";
          };

          const inputs = {};
          const original = {};
          const form = el("form", { id: "fields-form", "aria-labelledby": "fields-title" }, el("h2", { id: "fields-title" }, "Fields"));
          const grid = el("div", { class: "form-grid" });
          for (const key of keys) {
            original[key] = pass.fields ? pass.fields[key] : undefined;
            const input = el("input", { id: "field-" + slug(key), name: key, value: fieldText(original[key]), autocomplete: "off", readonly: !can("write") });
            inputs[key] = input;
            grid.append(field(key, input));
          }
          form.append(grid);
          if (can("write")) {
            form.append(el("div", { class: "actions" }, el("button", { type: "submit", id: "save-fields" }, "Save changes")),
              el("p", { class: "muted" }, "Saving makes a new version of the pass and tells the holder's devices to fetch it."));
          }
          form.addEventListener("submit", async (event) => {
            event.preventDefault();
            const changes = {};
            for (const key of keys) {
              const text = inputs[key].value;
              if (text === fieldText(original[key])) continue;
              changes[key] = fieldValue(text, original[key]);
            }
            saved.replaceChildren();
            if (!Object.keys(changes).length) { saved.append(el("p", { class: "notice" }, "Nothing changed.")); return; }
            const save = form.querySelector("#save-fields");
            save.disabled = true;
            try {
              pass = await api("PATCH", path, { data: { fields: changes } });
              for (const key of keys) original[key] = pass.fields ? pass.fields[key] : original[key];
              const pushes = pass.pushesQueued || 0;
              saved.append(el("p", { class: "notice" }, "Saved: version " + pass.updateTag + ". " +
                (pushes === 1 ? "1 push" : pushes + " pushes") + " sent to the holder's devices."));
              // What the template's rules found questionable in the new version (a number style on a text value):
              // saved all the same, and said.
              for (const warning of pass.warnings || []) saved.append(el("p", { class: "notice warn" }, "Warning: " + warning));
              draw();
              drawHistory().catch(() => {});
            } catch (error) {
              saved.append(problem(error));
            } finally {
              save.disabled = false;
            }
          });

          const voidButton = el("button", { type: "button", id: "void-pass", class: "danger" }, "Void this pass");
          const unvoidButton = el("button", { type: "button", id: "unvoid-pass", class: "secondary" }, "Unvoid this pass");
          voidButton.addEventListener("click", async () => {
            if (voidButton.dataset.confirm !== "yes") {
              voidButton.dataset.confirm = "yes";
              voidButton.textContent = "Void it: the holder's pass stops working";
              return;
            }
            saved.replaceChildren();
            voidButton.disabled = true;
            try {
              pass = Object.assign(await api("DELETE", path), {});
              saved.append(el("p", { class: "notice" }, "Voided: version " + pass.updateTag + "."));
            } catch (error) { saved.append(problem(error)); } finally {
              voidButton.disabled = false;
              draw();
            }
          });
          unvoidButton.addEventListener("click", async () => {
            saved.replaceChildren();
            unvoidButton.disabled = true;
            try {
              const campaign = await api("POST", "/api/v1/campaigns", { select: { passTypeIdentifier: type, serialNumbers: [serial] }, unvoid: true },
                { idempotencyKey: randomKey() });
              let state = campaign;
              for (let tries = 0; tries < 100 && !["done", "failed", "cancelled"].includes(state.state); tries++) {
                await new Promise((resolve) => setTimeout(resolve, 300));
                state = await api("GET", "/api/v1/campaigns/" + enc(campaign.id));
              }
              pass = await api("GET", path);
              saved.append(el("p", { class: "notice" }, pass.voided ? "The pass is still voided (" + state.state + ")." : "Unvoided: version " + pass.updateTag + "."));
              draw();
            } catch (error) { saved.append(problem(error)); } finally { unvoidButton.disabled = false; }
          });

          const history = el("div", { id: "pass-history" });
          const eventWords = { "pass.created": "Created", "pass.updated": "New version", "pass.voided": "Voided", "pass.unvoided": "Unvoided",
            "pass.registered": "Added to a device", "pass.unregistered": "Removed from a device", "pass.personalized": "Personalized",
            "pass.redeemed": "Redeemed" };
          const drawHistory = async () => {
            const answer = await api("GET", path + "/events?limit=50");
            history.replaceChildren(table("The pass's history, newest first", ["Time", "What", "Details"], answer.events.map((event) => {
              const data = event.data || {};
              const details = [];
              if (data.changed) details.push("changed: " + [].concat(data.changed).join(", "));
              if (data.campaign) details.push("campaign " + data.campaign);
              if (data.wallet) details.push(data.wallet === "google" ? "Google Wallet" : data.wallet);
              if (data.device) details.push("device " + String(data.device).slice(0, 8));
              if (data.place) details.push("at " + data.place);
              return el("tr", {}, el("td", {}, formatDate(event.createdAt)), el("td", {}, eventWords[event.type] || event.type), el("td", {}, details.join("; ")));
            }), { id: "history-table", hideCaption: true, empty: "No events kept for this pass." }),
            el("p", { class: "muted" }, "Each new version is pushed once to every device the pass is on; devices then fetch it."));
          };

          const holder = pass.holderPageURL;
          show(
            el("div", { class: "cards" },
              el("section", { class: "card", "aria-labelledby": "preview-title" }, el("h2", { id: "preview-title" }, "As the holder sees it"), preview),
              el("section", { class: "card", "aria-labelledby": "details-title" }, el("h2", { id: "details-title" }, "Details"), details,
                el("div", { class: "actions" }, voidButton, unvoidButton))),
            el("section", { class: "card" }, form, saved),
            el("section", { class: "card", "aria-labelledby": "links-title" }, el("h2", { id: "links-title" }, "Links for the holder"),
              facts([
                ["Download", el("a", { href: pass.downloadURL, id: "download-link" }, "The .pkpass file")],
                ["Landing page", holder ? el("a", { href: holder, id: "holder-link" }, holder) : null],
              ]),
              holder ? el("figure", { class: "qr" }, image(path + "/holder-qr", "QR code of the holder landing page"),
                el("figcaption", { class: "muted" }, "Scan to open the landing page on a phone.")) : null),
            el("section", { class: "card", "aria-labelledby": "history-title" }, el("h2", { id: "history-title" }, "History"), history));
          draw();
          await drawHistory();
        };
        """#
}
