/// Why two builds of one instruction differ, and what changes it in the template: one entry of
/// the catalog in `ReproducibilityCause+Catalog.swift`, the one place the causes are worded.
public struct ReproducibilityCause: Sendable, Hashable {
    /// A stable name for machines, e.g. `package-manager-logs`.
    public var id: String
    /// What happened, in one sentence.
    public var summary: String
    /// What to change, in the template's own terms.
    public var fix: String
    /// An example of what it looks like: the kind of line that causes it and what differs.
    public var example: String
}
