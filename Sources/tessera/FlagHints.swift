import Foundation
import PassBundle
import TesseraServer

/// The libraries' errors name parameters (`wwdrPath`, `keyPassword`, `database`); the CLI says which flag or
/// environment variable gives each, by the error's code.
enum FlagHints {
    /// A credential error with the flag that gives what is missing or wrong.
    /// - Parameters:
    ///   - error: The library's error.
    ///   - p12: Whether the credentials came from a PKCS#12 (its password flag, not the key's).
    /// - Returns: The message to print.
    static func message(for error: PassBundleError, p12: Bool, pkcs11: Bool = false) -> String {
        switch error.code {
        case .passwordRequired where pkcs11:
            "\(error.reason); give the token's user PIN with --pkcs11-pin-file or TESSERA_PKCS11_PIN"
        case .passwordRequired where p12:
            "\(error.reason); give the password with --p12-password-file or TESSERA_P12_PASSWORD"
        case .passwordRequired:
            "\(error.reason); give its password with --key-password-file or TESSERA_KEY_PASSWORD"
        case .intermediateMissing:
            "\(error.reason); give it with --wwdr"
        case .wrongIntermediate:
            "\(error.reason); give that intermediate with --wwdr"
        default:
            error.reason
        }
    }

    /// A server setting's error under its flag (`database` → `--database`).
    /// - Parameter error: The library's error.
    /// - Returns: The message to print.
    static func message(for error: ServerConfigurationError) -> String {
        "--\(flag(forSetting: error.setting)): \(error.reason)"
    }

    /// The flag of a ``ServerConfiguration`` property: its name in kebab case (`publicURL` → `public-url`).
    static func flag(forSetting setting: String) -> String {
        var flag = ""
        var previousUpper = false
        for character in setting {
            if character.isUppercase {
                if !flag.isEmpty && !previousUpper { flag += "-" }
                flag += character.lowercased()
                previousUpper = true
            } else {
                flag.append(character)
                previousUpper = false
            }
        }
        return flag
    }

    /// A verification finding with the flag of the parameter it names: the chain check needs `--root`, the
    /// intermediate comes from `--wwdr`.
    /// - Parameter message: The verifier's message.
    /// - Returns: The message to print.
    static func verificationMessage(_ message: String) -> String {
        let noRoot = ": no root was given (root)"
        if message.hasSuffix(noRoot) { return message.dropLast(noRoot.count) + "; give --root to check it" }
        return message.replacingOccurrences(of: "the WWDR intermediate (wwdr)", with: "the WWDR intermediate (--wwdr)")
    }
}
