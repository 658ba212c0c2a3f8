public import PassModel

/// The layout the preview draws a pass's front in: the one iOS 27 shows for it.
public enum PreviewLayout: String, Sendable, CaseIterable {
    /// The classic layout of the pass's style.
    case classic
    /// The poster event ticket (iOS 18 and later): full-bleed artwork, event logo text, semantics and a footer.
    case posterEventTicket
    /// The semantic boarding pass (iOS 26 and later): the flight drawn from `semantics`.
    case semanticBoardingPass
    /// The poster generic pass (iOS 27 and later): artwork, the `posterGeneric` fields and a footer.
    case posterGeneric

    /// The layout Wallet gives `pass`: `posterGeneric` when the pass has it (and no style other than `generic`);
    /// else the first of `preferredStyleSchemes` made for the pass's style, when it is a poster or semantic scheme the
    /// pass qualifies for (the validator reported no reason to fall back on `preferredStyleSchemes`); else classic.
    /// - Parameters:
    ///   - pass: The pass.
    ///   - report: The validator's report on it.
    /// - Returns: The layout.
    public static func of(_ pass: Pass, report: ValidationReport) -> PreviewLayout {
        if pass.posterGeneric != nil, pass.style == nil || pass.style == .generic { return .posterGeneric }
        guard let style = pass.style,
              let scheme = pass.preferredStyleSchemes?.map(PassStyleScheme.init(rawValue:)).first(where: { $0.style == style }),
              scheme.isEnhanced
        else { return .classic }
        let fallsBack = report.issues.contains { $0.path == "preferredStyleSchemes" && $0.message.contains("classic") }
        guard !fallsBack else { return .classic }
        return scheme == .posterEventTicket ? .posterEventTicket : .semanticBoardingPass
    }
}
