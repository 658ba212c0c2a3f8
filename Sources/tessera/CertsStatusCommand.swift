import ArgumentParser
import Foundation
import SigningIdentities

/// `tessera certs status`: each signing identity's certificate and the days it has left, for people and for cron.
struct CertsStatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "List each signing identity of an identities file with its certificate's expiry and days left.",
        discussion: """
        Exit status: 0 when every certificate has at least --days days left; 1 when any expires within --days days \
        (7 by default) or has expired, or when an identity's credentials do not load; 2 for a usage error. \
        Run it daily from cron to hear of a renewal before Wallet does.
        """
    )

    @Option(help: "The identities file of tessera serve (TESSERA_IDENTITIES).")
    var identities: String?

    @OptionGroup var pkcs11: PKCS11Options

    @Option(help: "Days left below which the exit status is 1.")
    var days = 7

    @Flag(help: "Print JSON: {\"identities\": [{\"identifier\", \"entry\", \"teamIdentifier\", \"serialNumber\", \"expiresAt\", \"expiring\", \"daysLeft\", \"usable\", \"reason\"}]}.")
    var json = false

    func validate() throws {
        guard (0...3650).contains(days) else { throw ValidationError("--days must be from 0 to 3650") }
    }

    func run() throws {
        guard let path = identities ?? ProcessInfo.processInfo.environment["TESSERA_IDENTITIES"] else {
            throw CommandFailure(message: "--identities: the identities file is required (or TESSERA_IDENTITIES)", exitCode: 2)
        }
        let file: IdentitiesFile
        do {
            file = try IdentitiesFile(contentsOf: URL(fileURLWithPath: path))
        } catch let error as IdentitiesFileError {
            throw CommandFailure(message: "--identities \(error)")
        }
        let now = Date()
        let format = ISO8601DateFormatter()
        var due = false
        var rows: [[String: Any]] = []
        // Every identity is listed: one whose credentials do not load is a row saying why, not the end of the report.
        for (identifier, entry, result) in SigningIdentities.loadEach(file, pkcs11: try pkcs11.module()) {
            let identity: SigningIdentity
            switch result {
            case .success(let loaded):
                identity = loaded
            case .failure(let error):
                due = true
                rows.append(["identifier": identifier, "entry": entry, "usable": false, "reason": "does not load: \(error)"])
                continue
            }
            let daysLeft = identity.daysLeft(at: now)
            let reason = identity.unusableReason(at: now)
            if reason != nil || (daysLeft ?? 0) < days { due = true }
            var row: [String: Any] = [
                "identifier": identity.identifier, "entry": identity.entry, "serialNumber": identity.certificateSerialNumber,
                "usable": reason == nil,
            ]
            row["teamIdentifier"] = identity.teamIdentifier
            row["expiresAt"] = identity.expiresAt.map { format.string(from: $0) }
            row["expiring"] = identity.expiringPart
            row["daysLeft"] = daysLeft
            row["reason"] = reason
            rows.append(row)
        }
        if json {
            let data = try JSONSerialization.data(withJSONObject: ["identities": rows], options: [.sortedKeys, .prettyPrinted])
            print(String(decoding: data, as: UTF8.self))
        } else {
            let header = ["IDENTIFIER", "TEAM", "SERIAL", "EXPIRES", "DAYS LEFT", "STATUS"]
            let lines = rows.map { row -> [String] in
                let daysLeft = row["daysLeft"] as? Int
                let intermediate = row["expiring"] as? String == "WWDR intermediate" ? " (WWDR intermediate)" : ""
                let status = (row["reason"] as? String).map { "unusable: \($0)" }
                    ?? ((daysLeft ?? 0) < days ? "renew now\(intermediate)" : (daysLeft ?? 0) < 30 ? "renew soon\(intermediate)" : "ok")
                let serial = (row["serialNumber"] as? String).flatMap { $0.isEmpty ? nil : $0 } ?? "-"
                return [row["identifier"] as? String ?? "", row["teamIdentifier"] as? String ?? "-", serial,
                        row["expiresAt"] as? String ?? "-", daysLeft.map(String.init) ?? "-", status]
            }
            let widths = header.indices.map { column in ([header] + lines).map { $0[column].count }.max() ?? 0 }
            for line in [header] + lines {
                print(line.enumerated().map { column, text in
                    column == line.count - 1 ? text : text.padding(toLength: widths[column], withPad: " ", startingAt: 0)
                }.joined(separator: "  "))
            }
        }
        if due { throw ExitCode(1) }
    }
}
