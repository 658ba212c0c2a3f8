public import Foundation

/// What the validator reads from a PDF image: that it is a PDF, and its page size in points when the
/// first `/MediaBox` is written in plain text (it can also sit in a compressed object stream).
public struct PDFInfo: Sendable, Equatable {
    /// The page width in points, from the first `/MediaBox`; `nil` when none could be read.
    public var width: Double?
    /// The page height in points, from the first `/MediaBox`; `nil` when none could be read.
    public var height: Double?

    /// Creates the information for a page of a known size.
    /// - Parameters:
    ///   - width: The page width in points.
    ///   - height: The page height in points.
    public init(width: Double?, height: Double?) {
        self.width = width
        self.height = height
    }

    /// Reads the `%PDF-` header and the first `/MediaBox [x1 y1 x2 y2]`.
    /// - Parameter data: The file's bytes.
    /// - Throws: ``PassModelError`` `invalidPDF` when the header is missing or the file is cut off.
    public init(data: Data) throws {
        let bytes = [UInt8](data)
        guard bytes.starts(with: Array("%PDF-".utf8)) else {
            throw PassModelError(.invalidPDF, "not a PDF file (the %PDF- header is missing)")
        }
        guard Self.find(Array("%%EOF".utf8), in: bytes, from: max(0, bytes.count - 1024)) != nil else {
            throw PassModelError(.invalidPDF, "PDF file is truncated (no %%EOF marker at its end)")
        }
        guard let box = Self.mediaBox(in: bytes) else { return }
        width = abs(box[2] - box[0])
        height = abs(box[3] - box[1])
    }

    /// The four numbers after the first `/MediaBox`, or `nil` when there is none in plain text.
    private static func mediaBox(in bytes: [UInt8]) -> [Double]? {
        guard let start = find(Array("/MediaBox".utf8), in: bytes, from: 0) else { return nil }
        var index = start + 9
        func skipSpace() {
            while index < bytes.count, [0x20, 0x0A, 0x0D, 0x09, 0x0C, 0x00].contains(bytes[index]) { index += 1 }
        }
        skipSpace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "[") else { return nil }
        index += 1
        var numbers: [Double] = []
        while numbers.count < 4 {
            skipSpace()
            let begin = index
            while index < bytes.count, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+")
                || bytes[index] == UInt8(ascii: ".") || (0x30...0x39).contains(bytes[index])
            {
                index += 1
            }
            guard index > begin, let number = Double(String(decoding: bytes[begin..<index], as: UTF8.self)) else {
                return nil
            }
            numbers.append(number)
        }
        return numbers
    }

    private static func find(_ needle: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        guard bytes.count >= needle.count, start <= bytes.count - needle.count else { return nil }
        var index = start
        while index <= bytes.count - needle.count {
            if bytes[index] == needle[0], bytes[index..<index + needle.count].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }
}
