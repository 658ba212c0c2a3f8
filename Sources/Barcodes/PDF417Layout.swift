import Foundation

/// PDF417 security level and column count for a message.
///
/// Security level: the minimum ISO/IEC 15438 recommends for the number of data codewords (2 up to 40, 3 up to 160,
/// 4 up to 320, 5 up to 863, 6 beyond), so short boarding-pass payloads stay compact and long ones keep a sound
/// share of error correction.
///
/// Columns: Wallet draws PDF417 in a wide, short box, so the column count (1-30) is the one whose symbol is closest
/// to the target width-to-height ratio (3:1 by default), with rows kept within PDF417's 3-90. The estimate
/// assumes byte compaction (6 bytes in 5 codewords), which is what zint uses for arbitrary bytes and an upper
/// bound for text, and zint's 3-module row height.
public struct PDF417Layout: Sendable, Hashable {
    /// Error-correction (security) level, 0-8: 2^(level+1) error-correction codewords.
    public let securityLevel: Int
    /// Data columns, 1-30.
    public let columns: Int

    /// Chooses a layout for a message of `byteCount` bytes.
    /// - Parameters:
    ///   - byteCount: The encoded message's length.
    ///   - configuration: Fixed level or columns override the automatic choice.
    /// - Throws: `BarcodeError` when a fixed level or column count is out of range.
    public init(byteCount: Int, configuration: BarcodeRenderer.Configuration = .init()) throws {
        let dataCodewords = 1 + (byteCount * 5 + 5) / 6
        if let level = configuration.pdf417SecurityLevel {
            guard (0...8).contains(level) else {
                throw BarcodeError(.invalidOption, "pdf417SecurityLevel: \(level) is not between 0 and 8")
            }
            securityLevel = level
        } else {
            securityLevel = switch dataCodewords {
            case ...40: 2
            case ...160: 3
            case ...320: 4
            case ...863: 5
            default: 6
            }
        }
        if let columns = configuration.pdf417Columns {
            guard (1...30).contains(columns) else {
                throw BarcodeError(.invalidOption, "pdf417Columns: \(columns) is not between 1 and 30")
            }
            self.columns = columns
            return
        }
        let total = dataCodewords + 1 + (2 << securityLevel)  // data, length descriptor, error correction
        let target = configuration.pdf417AspectRatio > 0 ? configuration.pdf417AspectRatio : 3
        var best = 30
        var bestDistance = Double.infinity
        for candidate in 1...30 {
            let rows = max(3, (total + candidate - 1) / candidate)
            guard rows <= 90 else { continue }
            // start 17 + left indicator 17 + data 17 each + right indicator 17 + stop 18 modules; rows 3 modules tall
            let aspect = Double(17 * candidate + 69) / Double(3 * rows)
            let distance = abs(log(aspect / target))
            if distance < bestDistance {
                best = candidate
                bestDistance = distance
            }
        }
        columns = best
    }
}
