import Foundation
public import Logging
public import PassWebService
public import ServiceLifecycle
public import UnixSignals

/// Notices edited templates: on `SIGHUP`, and when the files under the templates folders change (their paths, sizes
/// and modification times, compared every ``Configuration/pollInterval``). The issuer then reads the templates again:
/// new passes use the new content, existing passes keep the version they are pinned to until a campaign
/// republishes them (see ``PassWebService/PassIssuer/reloadTemplates()``). Order templates are watched the same way:
/// new orders use the new content, existing orders keep the version they were made from.
public final class TemplateWatcher: Service, Sendable {
    /// How often the folder is looked at.
    public struct Configuration: Sendable {
        /// How often the templates folder's files are compared; `nil` leaves it to `SIGHUP`.
        public var pollInterval: Duration?

        /// Creates a configuration.
        public init(pollInterval: Duration? = .seconds(2)) {
            self.pollInterval = pollInterval
        }
    }

    private let issuer: PassIssuer
    private let orderIssuer: OrderIssuer?
    private let configuration: Configuration
    private let logger: Logger
    private let signals: UnixSignalsSequence?

    /// Creates a watcher of the issuers' templates folders (every signing identity's, passes' and orders').
    /// - Parameter signals: `SIGHUP`, trapped before the server listens (a signal sent as soon as it answers is then
    ///   acted on, not fatal); `nil` traps it when the watcher starts.
    public init(issuer: PassIssuer, orderIssuer: OrderIssuer? = nil, configuration: Configuration, logger: Logger,
                signals: UnixSignalsSequence? = nil)
    {
        self.issuer = issuer
        self.orderIssuer = orderIssuer
        self.configuration = configuration
        self.logger = logger
        self.signals = signals
    }

    /// Watches until the service group shuts down.
    public func run() async throws {
        let signals = if let signals { signals } else { await UnixSignalsSequence(trapping: .sighup) }
        await cancelWhenGracefulShutdown {
            await withTaskGroup(of: Void.self) { group in
                group.addTask {
                    // Every template read once now, so the first request that needs one (a campaign, a device's
                    // fetch) does not wait while its files are read, hashed and zipped.
                    let summaries = (try? await self.issuer.templateSummaries()) ?? []
                    for summary in summaries where summary.error != nil {
                        self.logger.warning("template \(summary.name) does not load: \(summary.error ?? "")")
                    }
                }
                group.addTask {
                    for await _ in signals {
                        self.logger.info("SIGHUP: reading the templates again")
                        await self.reload()
                    }
                }
                if let interval = self.configuration.pollInterval {
                    group.addTask { await self.poll(every: interval) }
                }
                await group.waitForAll()
            }
        }
    }

    private func poll(every interval: Duration) async {
        // Written while being copied? A change counts once the files have settled.
        await SettledChanges.watch(every: interval, fingerprint: fingerprint) {
            logger.info("template files changed: reading the templates again")
            await reload()
        }
    }

    private func reload() async {
        log(await issuer.reloadTemplates(),
            edited: "template edited: new passes use the new version; existing passes keep theirs until a campaign republishes the template",
            failed: "template no longer loads: its passes are served from the version they are pinned to")
        log(issuer.templateClashes, items: "passes")
        guard let orderIssuer else { return }
        log(await orderIssuer.reloadTemplates(),
            edited: "order template edited: new orders use the new version; existing orders keep the one they were made from",
            failed: "order template no longer loads: its orders are served from the version they were made from")
        log(orderIssuer.templateClashes, items: "orders")
    }

    /// A template copied into another identity's folder would sign as another brand: the copy is ignored, and said.
    private func log(_ clashes: [(name: String, kept: URL?, ignored: [URL])], items: String) {
        for clash in clashes {
            logger.error(
                "template in several identities' folders: the copies are ignored, and the server refuses to start until one is left",
                metadata: ["template": "\(clash.name)", "kept": "\(clash.kept?.path ?? "none: new \(items) refused")",
                           "ignored": "\(clash.ignored.map(\.path).joined(separator: ", "))"])
        }
    }

    private func log(_ reload: TemplateReload, edited: Logger.Message, failed: Logger.Message) {
        for change in reload.changed {
            logger.notice(edited, metadata: ["template": "\(change.name)", "from": "\(change.from)", "to": "\(change.to)"])
        }
        for failure in reload.failed {
            logger.error(failed, metadata: ["template": "\(failure.name)", "reason": "\(failure.reason)"])
        }
    }

    /// Every file's path, size and modification time under every templates folder (passes' and orders').
    private func fingerprint() -> [String] {
        issuer.templateSources.flatMap { Self.fingerprint(of: $0.directory) }
            + (orderIssuer?.templateSources ?? []).flatMap { Self.fingerprint(of: $0.directory) }
    }

    /// Every file's path, size and modification time under `directory`, in path order. Symbolic links to folders are
    /// followed (a template folder linked from a release directory is loaded through its link, so its edits count),
    /// each real folder once.
    static func fingerprint(of directory: URL) -> [String] {
        var entries: [String] = []
        var visited: Set<String> = []
        walk(directory.path, depth: 0, visited: &visited, into: &entries)
        return entries.sorted()
    }

    private static func walk(_ path: String, depth: Int, visited: inout Set<String>, into entries: inout [String]) {
        guard depth <= 8, visited.insert(URL(fileURLWithPath: path).resolvingSymlinksInPath().path).inserted,
              let names = try? FileManager.default.contentsOfDirectory(atPath: path)
        else { return }
        for name in names {
            let child = path + "/" + name
            if let entry = FileFingerprint.regularFile(atPath: child) {
                entries.append(entry)
                continue
            }
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: child, isDirectory: &isDirectory), isDirectory.boolValue {
                walk(child, depth: depth + 1, visited: &visited, into: &entries)
            }
        }
    }
}
