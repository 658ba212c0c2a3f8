import PassModel

/// Wallet's layout limits, the same the validator warns about: fields past them are not shown, so the preview does
/// not draw them either.
enum FieldLimits {
    /// The fields of `style` Wallet shows: at most 3 header fields; 1 primary field (2 on a boarding pass); 4
    /// secondary and 4 auxiliary fields (5 each on a boarding pass, 4 per row on an event ticket); and on a coupon,
    /// store card or generic pass with a square (QR or Aztec) barcode, 4 secondary and auxiliary fields together,
    /// secondary ones first.
    static func shown(_ fields: PassFields, style: PassStyle?, pass: Pass) -> PassFields {
        var shown = fields
        shown.headerFields = fields.headerFields.map { Array($0.prefix(3)) }
        shown.primaryFields = fields.primaryFields.map { Array($0.prefix(style == .boardingPass ? 2 : 1)) }
        let secondary = Array((fields.secondaryFields ?? []).prefix(style == .boardingPass ? 5 : 4))
        var auxiliary = fields.auxiliaryFields ?? []
        switch style {
        case .boardingPass?:
            auxiliary = Array(auxiliary.prefix(5))
        case .eventTicket?:
            var perRow = [0: 0, 1: 0]
            auxiliary = auxiliary.filter { field in
                let row = field.row == 1 ? 1 : 0
                perRow[row, default: 0] += 1
                return perRow[row]! <= 4
            }
        default:
            auxiliary = Array(auxiliary.prefix(4))
            let format = pass.barcodes?.first?.format ?? pass.barcode?.format
            if format == .qr || format == .aztec, secondary.count + auxiliary.count > 4 {
                auxiliary = Array(auxiliary.prefix(max(0, 4 - secondary.count)))
            }
        }
        shown.secondaryFields = fields.secondaryFields == nil ? nil : secondary
        shown.auxiliaryFields = fields.auxiliaryFields == nil ? nil : auxiliary
        return shown
    }
}
