extension PassValidator {
    func checkStyleAndFields(_ pass: Pass, context: inout ValidationContext) {
        let styles = pass.styles
        let names = PassStyle.allCases.map(\.rawValue).joined(separator: ", ")
        if styles.isEmpty, pass.posterGeneric != nil {
            context.warning(
                "posterGeneric",
                "iOS 26 and earlier cannot add a pass whose only style is posterGeneric; add generic beside it"
            )
        } else if styles.isEmpty {
            context.error("pass.json", "must contain exactly one style key (\(names)); found none")
        } else if styles.count > 1 {
            context.error(
                "pass.json",
                "must contain exactly one style key; found \(styles.map(\.rawValue).joined(separator: ", "))"
            )
        }
        var keyPaths: [String: FieldPath] = [:]
        for style in styles {
            guard let fields = pass[style: style] else { continue }
            checkFields(fields, style: style, pass: pass, keyPaths: &keyPaths, context: &context)
        }
        if let poster = pass.posterGeneric {
            if let other = styles.first(where: { $0 != .generic }) {
                context.error(
                    "posterGeneric",
                    "goes only with generic (the style earlier iOS versions show), found \(other.rawValue)"
                )
            }
            // The poster layout replaces the generic one, so its keys need only be unique among themselves.
            var posterKeyPaths: [String: FieldPath] = [:]
            checkFields(
                poster, style: .generic, stylePath: "posterGeneric", pass: pass, keyPaths: &posterKeyPaths,
                context: &context)
        } else {
            for style in styles where style != .generic {
                if let footer = pass[style: style]?.footerFields, !footer.isEmpty {
                    context.warning("\(style.rawValue).footerFields", "only posterGeneric shows footerFields; Wallet ignores them")
                }
            }
        }
    }

    private func checkFields(
        _ fields: PassFields,
        style: PassStyle,
        stylePath: String? = nil,
        pass: Pass,
        keyPaths: inout [String: FieldPath],
        context: inout ValidationContext
    ) {
        let isPoster = stylePath != nil
        let stylePath = stylePath ?? style.rawValue
        if style == .boardingPass {
            if let transitType = fields.transitType {
                if !transitType.isKnown { context.error("\(stylePath).transitType", Self.unknownValue(transitType)) }
            } else {
                context.error("\(stylePath).transitType", "required for boarding passes")
            }
        } else if fields.transitType != nil {
            context.warning("\(stylePath).transitType", "only boarding passes use transitType; Wallet ignores it")
        }
        Self.warnUnknownKeys(fields.unknownKeys, at: stylePath, context: &context)
        if !isPoster { checkFieldCounts(fields, style: style, pass: pass, context: &context) }

        for (group, list) in fields.groups {
            for (index, field) in list.enumerated() {
                let path = FieldPath(style: stylePath, group: group, index: index)
                if let key = field.key {
                    if key.isEmpty {
                        context.error(path["key"], "must not be empty")
                    } else if let first = keyPaths[key] {
                        context.error(path["key"], "duplicate field key \"\(key)\", also used at \(first)")
                    } else {
                        keyPaths[key] = path
                    }
                } else {
                    context.error(path["key"], "required key is missing")
                }
                checkField(field, path: path, isEventAuxiliary: style == .eventTicket && group == "auxiliaryFields",
                    context: &context)
                if field.textAlignment != nil, group == "primaryFields" || group == "backFields" {
                    context.warning(path["textAlignment"], "not used on \(group): Wallet aligns them itself and ignores it")
                }
            }
        }
    }

    func checkField(_ field: PassField, path: FieldPath, isEventAuxiliary: Bool, context: inout ValidationContext) {
        if field.value == nil {
            context.error(path["value"], "required key is missing")
        }
        if let style = field.dateStyle, !style.isKnown { context.warning(path["dateStyle"], Self.unknownValue(style)) }
        if let style = field.timeStyle, !style.isKnown { context.warning(path["timeStyle"], Self.unknownValue(style)) }
        if let style = field.numberStyle, !style.isKnown {
            context.warning(path["numberStyle"], Self.unknownValue(style))
        }
        if let alignment = field.textAlignment, !alignment.isKnown {
            context.warning(path["textAlignment"], Self.unknownValue(alignment))
        }
        for (index, type) in (field.dataDetectorTypes ?? []).enumerated() where !type.isKnown {
            context.warning("\(path["dataDetectorTypes"])[\(index)]", Self.unknownValue(type))
        }
        let isDate = (field.dateStyle != nil && field.dateStyle != PassDateStyle.none)
            || (field.timeStyle != nil && field.timeStyle != PassDateStyle.none) || field.isRelative == true
        if isDate, let value = field.value {
            if let text = value.stringValue {
                if let problem = W3CDate.problem(with: text) {
                    context.error(path["value"], "a field with dateStyle or timeStyle needs a W3C date: \(problem)")
                }
            } else {
                context.error(path["value"], "a field with dateStyle or timeStyle needs a W3C date string, found a number")
            }
        }
        if let value = field.value, !value.isNumber {
            if field.numberStyle != nil {
                context.warning(path["numberStyle"], "applies only to numeric values; the value is a string")
            }
            if field.currencyCode != nil {
                context.warning(path["currencyCode"], "applies only to numeric values; the value is a string")
            }
        }
        if field.currencyCode != nil, field.numberStyle != nil {
            context.warning(path["currencyCode"], "currencyCode and numberStyle together: Wallet shows the value as a "
                + "currency amount and ignores numberStyle")
        }
        if let code = field.currencyCode, code.count != 3 || !code.allSatisfy({ $0.isASCII && $0.isUppercase }) {
            context.warning(path["currencyCode"], "must be an ISO 4217 code such as USD, found \"\(code)\"")
        }
        if let row = field.row {
            if !isEventAuxiliary {
                context.warning(path["row"], "only event ticket auxiliary fields use row; Wallet ignores it")
            } else if row != 0 && row != 1 {
                context.error(path["row"], "must be 0 or 1, found \(row)")
            }
        }
        Self.warnUnknownKeys(field.unknownKeys, at: path.description, context: &context)
    }

    /// Apple's layout limits. Extra fields are not shown, so exceeding a limit is a warning.
    private func checkFieldCounts(_ fields: PassFields, style: PassStyle, pass: Pass, context: inout ValidationContext) {
        let stylePath = style.rawValue
        func limit(_ group: String, _ count: Int, _ maximum: Int, _ note: String = "") {
            guard count > maximum else { return }
            context.warning(
                "\(stylePath).\(group)",
                "\(style.rawValue) shows at most \(maximum) \(group)\(note); found \(count), Wallet ignores the rest"
            )
        }
        limit("headerFields", fields.headerFields?.count ?? 0, 3)
        limit("primaryFields", fields.primaryFields?.count ?? 0, style == .boardingPass ? 2 : 1)
        let secondary = fields.secondaryFields?.count ?? 0
        let auxiliary = fields.auxiliaryFields ?? []
        switch style {
        case .boardingPass:
            limit("secondaryFields", secondary, 5)
            limit("auxiliaryFields", auxiliary.count, 5)
        case .eventTicket:
            limit("secondaryFields", secondary, 4)
            for row in [0, 1] {
                limit("auxiliaryFields", auxiliary.filter { ($0.row ?? 0) == row }.count, 4, " per row (row \(row))")
            }
        case .coupon, .generic, .storeCard:
            limit("secondaryFields", secondary, 4)
            limit("auxiliaryFields", auxiliary.count, 4)
            let format = pass.barcodes?.first?.format ?? pass.barcode?.format
            if format == .qr || format == .aztec, secondary + auxiliary.count > 4, secondary <= 4, auxiliary.count <= 4 {
                context.warning(
                    "\(stylePath).auxiliaryFields",
                    "with a square barcode, \(style.rawValue) shows at most 4 secondary and auxiliary fields "
                        + "together; found \(secondary + auxiliary.count)"
                )
            }
        }
    }
}

/// Where a field sits (`eventTicket.auxiliaryFields[2]`), turned into text only when an issue is reported.
struct FieldPath: CustomStringConvertible {
    var style: String
    var group: String
    var index: Int

    var description: String { "\(style).\(group)[\(index)]" }

    /// The path of one of the field's members: `eventTicket.auxiliaryFields[2].value`.
    subscript(member: String) -> String { "\(description).\(member)" }
}
