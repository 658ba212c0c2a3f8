public import Foundation
public import PassCrypto

/// A development certificate chain generated at test time and written to a temporary folder.
public struct TestChain: Sendable {
    /// The generated chain.
    public let chain: DevelopmentChain
    /// The folder holding root.pem, wwdr.pem, pass.pem, pass.key, pass.p12.
    public let directory: URL
    /// The password of pass.p12.
    public let p12Password: String

    /// Generates and writes a chain.
    /// - Parameters:
    ///   - passTypeIdentifier: The Pass Type ID.
    ///   - teamIdentifier: The team.
    ///   - validFrom: Start of validity.
    ///   - passValidity: How long the pass certificate lasts.
    public init(passTypeIdentifier: String = "pass.dev.tessera.demo", teamIdentifier: String = "TESSERA123",
                validFrom: Date = Date().addingTimeInterval(-3600), passValidity: TimeInterval = 365 * 86_400) throws {
        chain = try DevelopmentChain.generate(passTypeIdentifier: passTypeIdentifier, teamIdentifier: teamIdentifier,
                                              validFrom: validFrom, passValidity: passValidity)
        directory = try TemporaryDirectory.make(prefix: "chain")
        p12Password = "test-\(UUID().uuidString.prefix(8))"
        try chain.write(to: directory, p12Password: p12Password)
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
