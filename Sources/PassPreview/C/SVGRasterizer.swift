import CRsvg
import Foundation
import Synchronization

/// Every librsvg and cairo call: an SVG document parsed by librsvg, drawn onto a cairo ARGB image surface and
/// written as PNG into memory. Each owned C object is a `final class` freed in `deinit`.
enum SVGRasterizer {
    /// Rasterizes `svg` into a `width`×`height` pixel PNG (the document is scaled to fill that viewport).
    ///
    /// One drawing at a time in the process: two threads inside librsvg at once (its text layout through
    /// fontconfig and pango) were seen to wait on each other for ever, holding both of Swift's worker threads.
    static func png(svg: String, width: Int, height: Int) throws -> Data {
        try lock.withLock { _ in try draw(svg: svg, width: width, height: height) }
    }

    private static let lock = Mutex(())

    private static func draw(svg: String, width: Int, height: Int) throws -> Data {
        let handle = try RsvgDocument(svg: svg)
        let surface = try CairoImageSurface(width: width, height: height)
        let context = try CairoContext(surface: surface)
        try context.withUnsafePointer { cr in
            var viewport = RsvgRectangle(x: 0, y: 0, width: Double(width), height: Double(height))
            var error: UnsafeMutablePointer<GError>?
            let drawn = handle.withUnsafePointer { rsvg_handle_render_document($0, cr, &viewport, &error) }
            if drawn == 0 { throw failure("cannot draw the preview", error) }
            let status = cairo_status(cr)
            guard status == CAIRO_STATUS_SUCCESS else {
                throw PassPreviewError(.rasterizerFailure, "cannot draw the preview",
                                       libraryError: String(cString: cairo_status_to_string(status)))
            }
        }
        return try surface.pngData()
    }

    /// A `PassPreviewError` carrying GLib's message, freeing the `GError`.
    static func failure(_ reason: String, _ error: UnsafeMutablePointer<GError>?) -> PassPreviewError {
        guard let error else { return PassPreviewError(.rasterizerFailure, reason) }
        defer { g_error_free(error) }
        let message = error.pointee.message.map { String(cString: $0) } ?? ""
        return PassPreviewError(.rasterizerFailure, reason, libraryError: message)
    }
}

/// An owned `RsvgHandle` holding a parsed SVG document.
final class RsvgDocument {
    private let handle: UnsafeMutablePointer<RsvgHandle>

    init(svg: String) throws {
        var error: UnsafeMutablePointer<GError>?
        let bytes = Array(svg.utf8)
        let made = bytes.withUnsafeBufferPointer { rsvg_handle_new_from_data($0.baseAddress, gsize($0.count), &error) }
        guard let made else { throw SVGRasterizer.failure("librsvg cannot read the preview SVG", error) }
        handle = made
    }

    deinit { g_object_unref(UnsafeMutableRawPointer(handle)) }

    func withUnsafePointer<T>(_ body: (UnsafeMutablePointer<RsvgHandle>) throws -> T) rethrows -> T { try body(handle) }
}

/// An owned cairo ARGB32 image surface.
final class CairoImageSurface {
    private let surface: OpaquePointer

    init(width: Int, height: Int) throws {
        let made = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height))!
        let status = cairo_surface_status(made)
        guard status == CAIRO_STATUS_SUCCESS else {
            cairo_surface_destroy(made)
            throw PassPreviewError(.rasterizerFailure, "cannot make a \(width)×\(height) image",
                                   libraryError: String(cString: cairo_status_to_string(status)))
        }
        surface = made
    }

    deinit { cairo_surface_destroy(surface) }

    func withUnsafePointer<T>(_ body: (OpaquePointer) throws -> T) rethrows -> T { try body(surface) }

    /// The surface as PNG bytes, encoded by ``PNGEncoder``.
    func pngData() throws -> Data {
        cairo_surface_flush(surface)
        guard let pixels = cairo_image_surface_get_data(surface) else {
            throw PassPreviewError(.rasterizerFailure, "cannot read the drawn preview")
        }
        return try PNGEncoder.encode(pixels: pixels, width: Int(cairo_image_surface_get_width(surface)),
                                     height: Int(cairo_image_surface_get_height(surface)),
                                     stride: Int(cairo_image_surface_get_stride(surface)))
    }
}

/// An owned cairo drawing context on a surface.
final class CairoContext {
    private let context: OpaquePointer

    init(surface: CairoImageSurface) throws {
        context = surface.withUnsafePointer { cairo_create($0) }
        let status = cairo_status(context)
        guard status == CAIRO_STATUS_SUCCESS else {
            cairo_destroy(context)
            throw PassPreviewError(.rasterizerFailure, "cannot draw on the image",
                                   libraryError: String(cString: cairo_status_to_string(status)))
        }
    }

    deinit { cairo_destroy(context) }

    func withUnsafePointer<T>(_ body: (OpaquePointer) throws -> T) rethrows -> T { try body(context) }
}
