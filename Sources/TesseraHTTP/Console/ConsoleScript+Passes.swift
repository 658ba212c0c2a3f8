extension ConsoleScript {
    static let templates = #"""
        pages.templates = async function () {
          const templates = await api("GET", "/api/v1/templates");
          const cards = el("div", { class: "cards" });
          for (const template of templates.templates) {
            const heading = "template-" + slug(template.name);
            const card = el("section", { class: "card", "aria-labelledby": heading }, el("h2", { id: heading }, template.name));
            if (template.error) {
              card.append(problem(template.error));
              cards.append(card);
              continue;
            }
            const path = "/api/v1/templates/" + enc(template.name) + "/preview";
            card.append(
              el("div", { class: "previews" },
                image(path + "?side=front", "Front of " + template.name + ", with its sample values"),
                image(path + "?side=back", "Back of " + template.name)),
              facts([
                ["Style", template.style], ["Pass type", template.passTypeIdentifier],
                ["Content version", template.contentVersion ? template.contentVersion.slice(0, 12) : null],
                ["Fields", (template.fields || []).join(", ")],
              ]),
              el("div", { class: "actions" },
                el("a", { class: "button secondary", href: consoleBase + "/console/passes?template=" + enc(template.name) }, "Find its passes"),
                can("write") ? el("a", { class: "button secondary", href: consoleBase + "/console/campaigns?template=" + enc(template.name) + "&change=republish" },
                  "Republish to its passes…") : null),
              el("p", { class: "muted" }, "An edited template changes new passes only; its existing passes keep the version they were made with until you republish it to them."));
            const versions = el("div", { id: "versions-" + slug(template.name), role: "status" });
            card.append(versions);
            api("GET", "/api/v1/templates/" + enc(template.name) + "/versions").then((counts) => {
              const current = counts.versions.find((v) => v.current);
              const older = counts.passesOnOlderVersions;
              versions.append(el("p", { class: older ? "notice" : "muted" },
                formatNumber(current ? current.passes : 0) + " passes carry this version" +
                (older ? "; " + formatNumber(older) + (older === 1 ? " pass still carries" : " passes still carry") + " an older one: republish to bring them up to date." : ".")));
            }).catch(() => {});
            cards.append(card);
          }
          show(templates.templates.length ? cards : el("p", {}, "No templates: add a folder under the templates directory."));
        };
        """#

    static let passes = #"""
        function passQuery(params) {
          const query = new URLSearchParams();
          for (const name of ["template", "voided", "redeemed", "cursor"]) if (params.get(name)) query.set(name, params.get(name));
          if (params.get("fieldKey") && params.get("fieldValue") !== null) query.set("field." + params.get("fieldKey"), params.get("fieldValue") || "");
          return query;
        }

        function passLink(pass) {
          return consoleBase + "/console/passes/" + enc(pass.passTypeIdentifier) + "/" + enc(pass.serialNumber);
        }

        pages.passes = async function () {
          const params = new URLSearchParams(location.search);
          const templates = await templateList();
          const select = (id, name, label, choices) => field(label, el("select", { id, name },
            choices.map(([value, text]) => el("option", { value, selected: (params.get(name) || "") === value }, text))));
          const templateChoice = templateSelect("search-template", templates, params.get("template"), "Any template");
          const form = el("form", { method: "get", action: consoleBase + "/console/passes", role: "search", "aria-label": "Find passes" },
            el("div", { class: "form-grid" },
              field("Serial number", el("input", { id: "search-serial", name: "serial", value: params.get("serial") || "", autocomplete: "off" })),
              field("Template", templateChoice),
              field("Field key", el("input", { id: "search-field-key", name: "fieldKey", value: params.get("fieldKey") || "", autocomplete: "off" })),
              field("Field value", el("input", { id: "search-field-value", name: "fieldValue", value: params.get("fieldValue") || "", autocomplete: "off" })),
              select("search-voided", "voided", "Voided", [["", "Either"], ["false", "Not voided"], ["true", "Voided"]]),
              select("search-redeemed", "redeemed", "Redeemed", [["", "Either"], ["false", "Not redeemed"], ["true", "Redeemed"]])),
            el("div", { class: "actions" }, el("button", { type: "submit", id: "search" }, "Search")));
          const results = el("section", { "aria-labelledby": "results-title" }, el("h2", { id: "results-title" }, "Passes"));
          show(form, results);

          const serial = (params.get("serial") || "").trim();
          if (serial) {
            const types = [...new Set(templates.filter((t) => !t.error && (!params.get("template") || t.name === params.get("template")))
              .map((t) => t.passTypeIdentifier).filter((type) => type))];
            for (const type of types) {
              try {
                const pass = await api("GET", "/api/v1/passes/" + enc(type) + "/" + enc(serial));
                location.assign(passLink(pass));
                return;
              } catch (error) {
                if (error.status !== 404) { results.append(problem(error)); return; }
              }
            }
            results.append(el("p", { role: "status" }, "No pass has the serial number " + serial + "."));
            return;
          }
          const query = passQuery(params);
          query.set("limit", "50");
          // A field filter scans a bounded number of passes per page: a page may end with no match and a cursor. Read
          // on (a few pages at most) rather than say "No pass matches" above a Next page link.
          let page = await api("GET", "/api/v1/passes?" + query.toString());
          for (let reads = 1; !page.passes.length && page.nextCursor && reads < 20; reads++) {
            query.set("cursor", page.nextCursor);
            page = await api("GET", "/api/v1/passes?" + query.toString());
          }
          const rows = page.passes.map((pass) => el("tr", {},
            el("td", {}, el("a", { href: passLink(pass) }, pass.serialNumber)),
            el("td", {}, pass.template), el("td", {}, formatDate(pass.lastModified)),
            el("td", {}, formatNumber(pass.registrations)), el("td", {}, pass.voided ? "Voided" : "—"),
            el("td", {}, pass.redemptions ? formatNumber(pass.redemptions) : "—")));
          results.append(table("Passes found", ["Serial number", "Template", "Last changed", "Devices", "Voided", "Redeemed"], rows,
            { id: "passes-table", hideCaption: true,
              empty: page.nextCursor ? "No pass matches among the passes read so far: the next page reads on." : "No pass matches." }));
          const exportQuery = passQuery(params);
          exportQuery.delete("cursor");
          exportQuery.set("format", "csv");
          const actions = el("div", { class: "actions" });
          if (params.get("cursor")) {
            const first = new URLSearchParams(params);
            first.delete("cursor");
            actions.append(el("a", { class: "button secondary", href: "?" + first.toString() }, "First page"));
          }
          if (page.nextCursor) {
            const next = new URLSearchParams(params);
            next.set("cursor", page.nextCursor);
            actions.append(el("a", { class: "button secondary", id: "next-page", href: "?" + next.toString() }, "Next page"));
          }
          actions.append(el("a", { class: "button secondary", id: "export-csv", href: consoleBase + "/api/v1/passes?" + exportQuery.toString(), download: "passes.csv" },
            "Export every match as CSV"));
          results.append(actions);
          announce(page.passes.length ? page.passes.length + " passes on this page."
            : page.nextCursor ? "No pass matches so far; the next page reads on." : "No pass matches.");
        };
        """#
}
