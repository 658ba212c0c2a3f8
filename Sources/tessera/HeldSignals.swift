import Dispatch
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// SIGINT and SIGTERM held while a step that must finish whole runs (`keys create --secret-file`: the key made on the
/// server and its secret written, or neither). The first signal is said and the step finishes; a second ends the
/// process at once, after `onSecond`. One hold at a time in a process.
final class HeldSignals: @unchecked Sendable {
    private static let arrived = Atomic<Int32>(0)
    private static let count = Atomic<Int>(0)
    private let sources: [any DispatchSourceSignal]

    init(_ message: String, onSecond: @escaping @Sendable () -> Void) {
        var sources: [any DispatchSourceSignal] = []
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                _ = Self.arrived.compareExchange(expected: 0, desired: number, ordering: .sequentiallyConsistent)
                if Self.count.wrappingAdd(1, ordering: .sequentiallyConsistent).newValue == 1 {
                    Terminal.standardError(message)
                } else {
                    onSecond()
                    exit(128 + Self.arrived.load(ordering: .sequentiallyConsistent))
                }
            }
            source.resume()
            sources.append(source)
        }
        self.sources = sources
    }

    /// Ends the hold (the default handling comes back).
    /// - Returns: The signal that arrived meanwhile, if one did.
    @discardableResult
    func release() -> Int32? {
        for source in sources { source.cancel() }
        signal(SIGINT, SIG_DFL)
        signal(SIGTERM, SIG_DFL)
        let signal = Self.arrived.load(ordering: .sequentiallyConsistent)
        return signal == 0 ? nil : signal
    }
}
