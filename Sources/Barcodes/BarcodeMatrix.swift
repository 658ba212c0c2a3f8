import Foundation

/// A barcode's modules: a grid of dark (`true`) and light cells, one cell per module, plus the quiet zone to leave
/// around it. One-dimensional and stacked symbols (Code 128, PDF417) are stored with their bars already repeated to
/// their full height, so every symbology draws the same way.
public struct BarcodeMatrix: Sendable, Hashable {
    /// The symbology that made it.
    public let format: Barcode.Format
    /// Columns of modules, without the quiet zone.
    public let width: Int
    /// Rows of modules, without the quiet zone.
    public let height: Int
    /// Light modules to leave on every side.
    public let quietZone: Int
    /// Row-major modules, `true` for dark.
    public let modules: [Bool]

    /// Creates a matrix.
    /// - Parameters:
    ///   - format: The symbology.
    ///   - width: Columns.
    ///   - height: Rows.
    ///   - quietZone: Light modules on every side (default: the format's own).
    ///   - modules: `width * height` cells, row by row, `true` for dark.
    public init(format: Barcode.Format, width: Int, height: Int, quietZone: Int? = nil, modules: [Bool]) {
        precondition(width > 0 && height > 0 && modules.count == width * height, "modules must hold width * height cells")
        self.format = format
        self.width = width
        self.height = height
        self.quietZone = max(0, quietZone ?? format.quietZone)
        self.modules = modules
    }

    /// Whether the module at column `x`, row `y` (both from 0, quiet zone excluded) is dark.
    /// - Parameters:
    ///   - x: The column.
    ///   - y: The row.
    /// - Returns: `true` for dark; `false` for light, including outside the symbol.
    public subscript(x: Int, y: Int) -> Bool {
        guard x >= 0, y >= 0, x < width, y < height else { return false }
        return modules[y * width + x]
    }

    /// Columns including the quiet zone on both sides.
    public var fullWidth: Int { width + 2 * quietZone }

    /// Rows including the quiet zone above and below.
    public var fullHeight: Int { height + 2 * quietZone }

    /// Calls `body` with each dark run of row `y`: its first column and its length, in modules.
    func forEachDarkRun(inRow y: Int, _ body: (_ start: Int, _ length: Int) -> Void) {
        modules.withUnsafeBufferPointer { cells in
            let base = y * width
            var x = 0
            while x < width {
                guard cells[base + x] else { x += 1; continue }
                let start = x
                while x < width && cells[base + x] { x += 1 }
                body(start, x - start)
            }
        }
    }

    /// Whether rows `a` and `b` are identical.
    func rowsEqual(_ a: Int, _ b: Int) -> Bool {
        modules.withUnsafeBytes { cells in
            memcmp(cells.baseAddress! + a * width, cells.baseAddress! + b * width, width) == 0
        }
    }

    static func checkScale(_ scale: Int) throws {
        guard (1...100).contains(scale) else {
            throw BarcodeError(.invalidOption, "scale: \(scale) is not between 1 and 100 pixels per module")
        }
    }
}
