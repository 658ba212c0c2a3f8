public import Foundation
public import PassCrypto

/// A development certificate chain generated at test time and written to a temporary folder.
///
/// Its certificates are new, but by default over keys generated once per test process (``TestKeys``): an RSA 2048 key
/// takes a few hundred milliseconds of CPU, and a test that made three of them on one of Swift's few cooperative
/// threads held back every other test's tasks (servers that answered connections late). A test that needs a chain
/// whose signatures the others' certificates do not verify (another key, another intermediate) asks for
/// `freshKeys: true`.
public struct TestChain: Sendable {
    /// The generated chain.
    public let chain: DevelopmentChain
    /// The folder holding root.pem, wwdr.pem, pass.pem, pass.key, pass.p12.
    public let directory: URL
    /// The password of pass.p12.
    public let p12Password: String
    /// Whether the chain's keys are its own rather than the process's shared ones.
    public let freshKeys: Bool
    /// When the chain's certificates start to be valid.
    public let validFrom: Date

    /// Where test chains start by default: 2026-01-01, before the fixed clocks of the tests that move time by hand
    /// (2026-09-21 and later), as a certificate not valid yet signs nothing; an hour ago on a host clock before that.
    public static var defaultValidFrom: Date {
        min(Date(timeIntervalSince1970: 1_767_225_600), Date().addingTimeInterval(-3600))
    }

    /// A validity from `start` that lasts until a year from now, as a new certificate of Apple's does.
    static func aYearFromNow(since start: Date) -> TimeInterval {
        Date().addingTimeInterval(365 * 86_400).timeIntervalSince(start)
    }

    /// Generates and writes a chain.
    /// - Parameters:
    ///   - passTypeIdentifier: The Pass Type ID.
    ///   - teamIdentifier: The team.
    ///   - validFrom: Start of validity.
    ///   - passValidity: How long the pass certificate lasts; until a year from now when nil.
    ///   - intermediateValidity: How long the WWDR intermediate lasts.
    ///   - freshKeys: New keys for this chain alone instead of the process's shared ones.
    public init(passTypeIdentifier: String = "pass.dev.tessera.demo", teamIdentifier: String = "TESSERA123",
                validFrom: Date = TestChain.defaultValidFrom, passValidity: TimeInterval? = nil,
                intermediateValidity: TimeInterval = 10 * 365 * 86_400, freshKeys: Bool = false) throws {
        self.freshKeys = freshKeys
        self.validFrom = validFrom
        chain = try DevelopmentChain.generate(passTypeIdentifier: passTypeIdentifier, teamIdentifier: teamIdentifier,
                                              validFrom: validFrom,
                                              passValidity: passValidity ?? Self.aYearFromNow(since: validFrom),
                                              intermediateValidity: intermediateValidity, keys: freshKeys ? DevelopmentChain.Keys.generate() : TestKeys.chain())
        directory = try TemporaryDirectory.make(prefix: "chain")
        p12Password = "test-\(UUID().uuidString.prefix(8))"
        try chain.write(to: directory, p12Password: p12Password)
    }

    /// Issues an Order Type ID certificate from the chain's intermediate, over the process's shared order key (a new
    /// key when the chain has fresh keys).
    /// - Parameters:
    ///   - orderTypeIdentifier: e.g. `order.com.example.shop`.
    ///   - teamIdentifier: The team.
    /// - Returns: The certificate and its key.
    public func orderTypeCertificate(orderTypeIdentifier: String, teamIdentifier: String) throws
        -> (certificate: Certificate, key: PrivateKey) {
        try chain.orderTypeCertificate(orderTypeIdentifier: orderTypeIdentifier, teamIdentifier: teamIdentifier,
                                       validFrom: validFrom, validity: Self.aYearFromNow(since: validFrom),
                                       key: freshKeys ? nil : TestKeys.order())
    }

    /// The path of a file in ``directory``.
    /// - Parameter name: e.g. `pass.pem`.
    public func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    /// Writes `contents` to a new file in ``directory`` and returns its path.
    /// - Parameters:
    ///   - name: The file name.
    ///   - contents: The text.
    @discardableResult
    public func write(_ name: String, _ contents: String) throws -> String {
        let url = directory.appendingPathComponent(name)
        try Data(contents.utf8).write(to: url)
        return url.path
    }
}

/// Temporary folders for tests.
public enum TemporaryDirectory {
    /// Creates a new empty folder under the system temporary directory.
    /// - Parameter prefix: A readable prefix.
    /// - Returns: Its URL.
    public static func make(prefix: String) throws -> URL {
        ExecutorWatchdog.start()
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}

extension Date {
    /// An hour ago: where a test chain whose validity is counted in hours or days from now starts.
    public static var hourAgo: Date { Date().addingTimeInterval(-3600) }
}
