import Foundation
import Testing
import TesseraTestSupport

/// Search and export over HTTP against `tessera serve`: pages in a stable order that neither skip nor repeat while
/// passes change and new ones arrive, the filters, CSV and NDJSON exports (read back by Python's own csv and json
/// modules), orders, and the queries refused.
@Suite("tessera serve search and export")
struct ServeListTests {
    typealias Server = OrdersServer
    static let passType = OrdersServer.passType

    static func create(_ server: Server, serial: String, section: String) async throws {
        let quoted = section.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "\r", with: "\\r").replacingOccurrences(of: "\n", with: "\\n")
        let body = #"{"template":"event-ticket","data":{"serialNumber":"\#(serial)","barcodeMessage":"B-\#(serial)","#
            + #""expirationDate":"2036-01-01T00:00Z","fields":{"section":"\#(quoted)"}}}"#
        let created = try await server.api("POST", "/api/v1/passes", body: body)
        try #require(created.status == 201, "\(String(decoding: created.body, as: UTF8.self))")
    }

    /// A GET with Python's HTTP client (chunked bodies decoded as any client would): status, Content-Type, body.
    static func fetch(_ server: Server, _ path: String, accept: String) async throws
        -> (status: Int, contentType: String, body: Data)
    {
        let out = server.work.appendingPathComponent("export-\(UUID().uuidString)")
        let result = try await Subprocess.run("/usr/bin/env", ["python3", "-c", """
            import sys, urllib.request, urllib.error
            request = urllib.request.Request(sys.argv[1], headers={"Authorization": "Bearer " + sys.argv[2], "Accept": sys.argv[3]})
            try:
                response = urllib.request.urlopen(request, timeout=60)
            except urllib.error.HTTPError as error:
                response = error
            open(sys.argv[4], "wb").write(response.read())
            print(response.status, response.headers.get("Content-Type", ""))
            """, "http://127.0.0.1:\(server.serve.port)\(path)", ServeProcess.adminToken, accept, out.path])
        try #require(result.status == 0, "\(result.stderr)")
        let words = result.stdout.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: " ", maxSplits: 1)
        return (Int(words.first ?? "") ?? 0, words.count > 1 ? String(words[1]) : "", try Data(contentsOf: out))
    }

    /// Every page of a search: the serial numbers in order, and the pages' sizes.
    static func walk(_ server: Server, _ query: String, limit: Int,
                     between: (Int) async throws -> Void = { _ in }) async throws -> [String] {
        var serials: [String] = []
        var cursor: String?
        var page = 0
        repeat {
            let path = "/api/v1/passes?limit=\(limit)" + (query.isEmpty ? "" : "&\(query)") + (cursor.map { "&cursor=\($0)" } ?? "")
            let answer = try await server.api("GET", path)
            try #require(answer.status == 200, "\(path): \(String(decoding: answer.body, as: UTF8.self))")
            let json = try Server.json(answer.body)
            let passes = try #require(json["passes"] as? [[String: Any]])
            #expect(passes.count <= limit)
            serials += passes.compactMap { $0["serialNumber"] as? String }
            cursor = json["nextCursor"] as? String
            #expect(json.keys.contains("nextCursor"), "nextCursor is always present (null after the last page)")
            try await between(page)
            page += 1
        } while cursor != nil
        return serials
    }

    @Test("pages neither skip nor repeat while passes change; filters; the last page has no cursor",
          arguments: Server.Database.tested)
    func pages(database: Server.Database) async throws {
        try await Server.with(database) { server in
            let serials = (0..<25).map { String(format: "L-%03d", $0 * 2) }
            for (index, serial) in serials.enumerated() {
                try await Self.create(server, serial: serial, section: index % 2 == 0 ? "A" : "B")
            }
            #expect(try await server.api("DELETE", "/api/v1/passes/\(Self.passType)/L-010").status == 200)
            let scan = try await ServeRedemptionTests.scan(server, #"{"barcodeMessage":"B-L-020"}"#)
            #expect(scan.json["result"] as? String == "valid")

            // Between pages: every pass changes, and new ones arrive before and after the position.
            var added: [String] = []
            let walked = try await Self.walk(server, "template=event-ticket", limit: 7) { page in
                for serial in serials {
                    _ = try await server.api("PATCH", "/api/v1/passes/\(Self.passType)/\(serial)",
                                             body: #"{"data":{"fields":{"row":"\#(page)"}}}"#)
                }
                let early = String(format: "L-%03d", page * 2 + 1)
                let late = "M-\(page)"
                try await Self.create(server, serial: early, section: "C")
                try await Self.create(server, serial: late, section: "C")
                added += [early, late]
            }
            #expect(Set(serials).isSubset(of: Set(walked)), "no pass that existed throughout is skipped")
            #expect(walked.count == Set(walked).count, "none is listed twice")
            #expect(walked == walked.sorted(), "in a stable order")
            #expect(Set(walked).subtracting(serials).isSubset(of: Set(added)))

            #expect(try await Self.walk(server, "voided=true", limit: 100) == ["L-010"])
            #expect(try await Self.walk(server, "redeemed=true", limit: 100) == ["L-020"])
            let sectionA = try await Self.walk(server, "template=event-ticket&field.section=A", limit: 5)
            #expect(sectionA == serials.enumerated().filter { $0.offset % 2 == 0 }.map(\.element))
            let everyone = try await Self.walk(server, "", limit: 1000)
            let future = try await Self.walk(server, "updatedSince=2099-01-01T00:00:00Z", limit: 10)
            #expect(future.isEmpty && everyone.count == serials.count + added.count)

            let one = try Server.json(try await server.api("GET", "/api/v1/passes?redeemed=true").body)
            let state = try #require((one["passes"] as? [[String: Any]])?.first)
            #expect(state["redemptions"] as? Int == 1 && state["redeemedAt"] is String && state["downloadURL"] is String)
            #expect(one["nextCursor"] is NSNull)
        }
    }

    @Test("CSV and NDJSON stream every match, read back by independent parsers; orders list and export too")
    func exports() async throws {
        try await Server.with(.sqlite) { server in
            // Formulas a spreadsheet would run (also after a minus sign), a negative number it would not, and quoting.
            let sections = ["=1+1", "-1+1+cmd|' /C calc'!A0", "-2.5", "B,\"C\""]
            for index in 0..<30 {
                try await Self.create(server, serial: "X-\(index)", section: sections[index < 10 ? 0 : index < 12 ? 1 : index < 14 ? 2 : 3])
            }
            // A value with a line break (CRLF, as web forms send it) stays one cell, and the formula after it is not a
            // record of its own; a value with a space is found as forms and URLSearchParams write it (`+`).
            let broken = "Row 1\r\n=HYPERLINK(\"http://x\")"
            try await Self.create(server, serial: "X-30", section: broken)
            try await Self.create(server, serial: "X-31", section: "Row A")
            let csv = try await Self.fetch(server, "/api/v1/passes?template=event-ticket", accept: "text/csv")
            #expect(csv.status == 200 && csv.contentType.hasPrefix("text/csv"))
            let file = server.work.appendingPathComponent("passes.csv")
            try csv.body.write(to: file)
            let parsed = try await Subprocess.run("/usr/bin/env", ["python3", "-c", """
                import csv, json, sys
                rows = list(csv.DictReader(open(sys.argv[1], newline='')))
                print(json.dumps({"count": len(rows), "columns": list(rows[0].keys()),
                                  "sections": sorted(set(r["field.section"] for r in rows)),
                                  "devices": sorted(set(r["devices"] for r in rows))}))
                """, file.path])
            try #require(parsed.status == 0, "\(parsed.stderr)")
            let summary = try Server.json(Data(parsed.stdout.utf8))
            #expect(summary["count"] as? Int == 32)
            let columns = summary["columns"] as? [String] ?? []
            #expect(columns.starts(with: ["passTypeIdentifier", "serialNumber", "template"]) && columns.contains("field.seat"))
            #expect(summary["sections"] as? [String] == ["'-1+1+cmd|' /C calc'!A0", "'=1+1", "-2.5", "B,\"C\"", broken, "Row A"],
                    "quoted, and formulas defused")
            for query in ["field.section=Row+A", "field.sec%74ion=Row%20A"] {
                let found = try await Self.walk(server, "template=event-ticket&\(query)", limit: 10)
                #expect(found == ["X-31"], "\(query)")
            }

            let ndjson = try await Self.fetch(server, "/api/v1/passes?field.section=B,%22C%22", accept: "application/x-ndjson")
            let lines = String(decoding: ndjson.body, as: UTF8.self).split(separator: "\n")
            #expect(ndjson.status == 200 && lines.count == 16)
            let first = try Server.json(Data(lines[0].utf8))
            #expect((first["fields"] as? [String: Any])?["section"] as? String == "B,\"C\"" && first["devices"] as? Int == 0)

            // Without a template: one fields column, the values the pass shows (the template's row, its own section),
            // as NDJSON gives them.
            let untyped = try await Self.fetch(server, "/api/v1/passes?field.section=-2.5", accept: "text/csv")
            let untypedFile = server.work.appendingPathComponent("untyped.csv")
            try untyped.body.write(to: untypedFile)
            let fieldsJSON = try await Subprocess.run("/usr/bin/env", ["python3", "-c", """
                import csv, sys
                print(list(csv.DictReader(open(sys.argv[1], newline='')))[0]["fields"])
                """, untypedFile.path])
            let shown = try Server.json(Data(fieldsJSON.stdout.utf8))
            #expect(shown["section"] as? String == "-2.5" && shown["row"] as? String == "12", "\(fieldsJSON.stdout)")

            let notAcceptable = try await Self.fetch(server, "/api/v1/passes", accept: "application/xml")
            #expect(notAcceptable.status == 406)

            // Accept by quality (RFC 9110): the highest wins, q=0 refuses, a wildcard range matches.
            for (accept, expected) in [
                ("application/json;q=0.1, text/csv", "text/csv"), ("text/csv;q=0, application/json", "application/json"),
                ("text/*", "text/csv"), ("text/csv, application/json", "text/csv"), ("*/*", "application/json"),
                ("*/*;q=0.5, text/csv;q=0", "application/json"), ("application/x-ndjson;q=0.9, */*;q=0.1", "application/x-ndjson"),
                ("text/csv;q=0", "406"),
            ] {
                let answer = try await Self.fetch(server, "/api/v1/passes?limit=1", accept: accept)
                let got = answer.status == 406 ? "406" : String(answer.contentType.split(separator: ";").first ?? "")
                #expect(got == expected, "\(accept): \(answer.status) \(answer.contentType)")
            }
        }
    }

    @Test("orders are listed in pages and exported")
    func orders() async throws {
        try await Server.with(.sqlite) { server in
            for index in 0..<5 {
                let created = try await server.api(
                    "POST", "/api/v1/orders", body: #"{"template":"shop-order","data":{"orderIdentifier":"O-\#(index)"}}"#)
                try #require(created.status == 201, "\(String(decoding: created.body, as: UTF8.self))")
            }
            var identifiers: [String] = []
            var cursor: String?
            repeat {
                let answer = try await server.api("GET", "/api/v1/orders?limit=2" + (cursor.map { "&cursor=\($0)" } ?? ""))
                try #require(answer.status == 200, "\(String(decoding: answer.body, as: UTF8.self))")
                let json = try Server.json(answer.body)
                identifiers += (json["orders"] as? [[String: Any]] ?? []).compactMap { $0["orderIdentifier"] as? String }
                cursor = json["nextCursor"] as? String
            } while cursor != nil
            #expect(identifiers == (0..<5).map { "O-\($0)" })
            let csv = try await Self.fetch(server, "/api/v1/orders?template=shop-order", accept: "text/csv")
            #expect(String(decoding: csv.body, as: UTF8.self).split(separator: "\r\n").count == 6)
            let refused = try await server.api("GET", "/api/v1/orders?voided=true")
            #expect(refused.status == 400)
            // The order type filter takes order type identifiers, and refuses a pass type identifier.
            let ofType = try Server.json(try await server.api("GET", "/api/v1/orders?orderTypeIdentifier=\(Server.orderType)").body)
            #expect((ofType["orders"] as? [Any])?.count == 5, "\(ofType)")
            let otherType = try Server.json(try await server.api("GET", "/api/v1/orders?orderTypeIdentifier=order.com.example.other").body)
            #expect((otherType["orders"] as? [Any])?.isEmpty == true, "\(otherType)")
            let passType = try await server.api("GET", "/api/v1/orders?orderTypeIdentifier=\(Server.passType)")
            #expect(passType.status == 400 && String(decoding: passType.body, as: UTF8.self).contains("not an order type identifier"))
        }
    }

    @Test("malformed searches are 400s naming the parameter; no token is 401")
    func refusals() async throws {
        try await Server.with(.sqlite) { server in
            for (query, field) in [
                ("limit=1001", "limit"), ("limit=0", "limit"), ("limit=x", "limit"), ("cursor=!!", "cursor"),
                ("cursor=Zm9v", "cursor"), ("voided=maybe", "voided"), ("redeemed=1", "redeemed"),
                ("updatedSince=yesterday", "updatedSince"), ("tempalte=event-ticket", "tempalte"),
                ("template=../x", "template"), ("passTypeIdentifier=a%20b", "passTypeIdentifier"),
                ("field.=x", "field."), ("limit=5&limit=6", "limit"),
                // A typo in a field key of the template searched would find nothing, silently.
                ("template=event-ticket&field.sectoin=A", "field.sectoin"),
            ] {
                let answer = try await server.api("GET", "/api/v1/passes?\(query)")
                #expect(answer.status == 400, "\(query): \(answer.head)")
                let error = try Server.json(answer.body)["error"] as? [String: Any]
                #expect(error?["field"] as? String == field, "\(query): \(String(decoding: answer.body, as: UTF8.self))")
            }
            #expect(try await server.send("GET", "/api/v1/passes").status == 401)
        }
    }
}
