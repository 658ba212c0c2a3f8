extension MemoryPassStore: TemplateVersionCounting {
    public func passCountsByTemplateVersion(template: String, passTypeIdentifier: String?) async throws
        -> [(version: String?, passes: Int)]
    {
        var counts: [String?: Int] = [:]
        for pass in passes.values
        where pass.template == template && (passTypeIdentifier == nil || pass.passTypeIdentifier == passTypeIdentifier) {
            counts[pass.templateVersion, default: 0] += 1
        }
        return counts.map { ($0.key, $0.value) }
    }
}
