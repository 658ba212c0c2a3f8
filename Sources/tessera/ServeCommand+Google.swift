import Foundation
import GoogleWallet
import PassWebService
import TesseraServer

extension ServeCommand {
    /// Google Wallet's settings, when `--google-issuer-id` (or `TESSERA_GOOGLE_ISSUER_ID`) is given.
    func googleConfiguration(publicURL: URL) throws -> GoogleWalletSync.Configuration? {
        guard google.isConfigured else { return nil }
        let environment = ProcessInfo.processInfo.environment
        let origins = googleOrigins.isEmpty
            ? (environment["TESSERA_GOOGLE_ORIGINS"] ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            : googleOrigins
        for origin in origins where PassGoogleCommand.webOrigin(origin) == nil {
            throw CommandFailure(message: "--google-origin \(origin): not a web origin such as https://tickets.example.com (a scheme, a host and a port, no path or query)", exitCode: 2)
        }
        let isLoopback = ["127.0.0.1", "localhost", "::1"].contains(publicURL.host ?? "")
        guard publicURL.scheme == "https" || isLoopback else {
            throw CommandFailure(message: "--google-issuer-id: Google fetches pass images over https, so --public-url must be https (it is \(publicURL.absoluteString))", exitCode: 2)
        }
        var configuration = GoogleWalletSync.Configuration(
            issuerId: try google.issuerId(), account: try google.serviceAccount(), client: try google.clientConfiguration(),
            // The public URL's origin (without its path) when no origin is given: a page under it may show the button.
            publicURL: publicURL,
            origins: origins.isEmpty
                ? [ConsoleSessionService.origin(of: publicURL)].compactMap { $0 }
                : origins.compactMap(PassGoogleCommand.webOrigin))
        if let keys = googleCallbackKeys ?? environment["TESSERA_GOOGLE_CALLBACK_KEYS"] {
            let isURL = keys.hasPrefix("https://") || keys.hasPrefix("http://")
            guard isURL ? URL(string: keys)?.host != nil : FileManager.default.isReadableFile(atPath: keys) else {
                throw CommandFailure(message: "--google-callback-keys \(keys): neither an http(s) URL nor a readable file", exitCode: 2)
            }
            if !isURL {
                // A file is read now: a file that is not Google's keys document would refuse every callback.
                do {
                    _ = try GoogleCallbackKeys(jsonData: try Data(contentsOf: URL(fileURLWithPath: keys)))
                } catch let error as GoogleCallbackError {
                    throw CommandFailure(message: "--google-callback-keys \(keys): \(error.reason)", exitCode: 2)
                }
            }
            configuration.callbackKeys = keys
        }
        if let text = environment["TESSERA_GOOGLE_RETRY_SECONDS"], let seconds = TimeInterval(text), seconds > 0 {
            configuration.firstRetryDelay = seconds
        }
        return configuration
    }
}
