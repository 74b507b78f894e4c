import AGViewModel
import Foundation

/// One input of `agvm convert`, packaged: the manager and what was skipped.
struct Conversion {
    /// The input path as given (`-` for standard input).
    var path: String
    /// The packaged manager.
    var manager: Manager
    /// What the packaging skipped, with the reason: elements, and headers
    /// or sections' items that could not be packaged.
    var skipped: [SkippedElement]

    /// How many of ``skipped`` are elements (items), not a header or a
    /// section's items.
    var skippedElementCount: Int {
        skipped.count { $0.location.isItem }
    }

    /// How many of ``skipped`` are a header or a section's items.
    var problemCount: Int { skipped.count - skippedElementCount }

    /// How the input is titled in trees: its file name, or `<stdin>`.
    var title: String {
        path == "-" ? "<stdin>" : URL(fileURLWithPath: path).lastPathComponent
    }

    /// Packages the JSON document `data`: with `spec` when given (one
    /// section with the spec's header, or the spec's several sections), else
    /// with ``GenericPackaging``.
    ///
    /// - Throws: ``JSONParseError`` for invalid JSON, ``PackagingError`` when
    ///   the document does not fit the spec (or is not packageable at all).
    static func convert(_ data: Data, path: String, spec: SpecPackager?) throws -> Conversion {
        guard let spec else {
            let (manager, skipped) = try GenericPackaging.package(try JSONParser().parse(data))
            return Conversion(path: path, manager: manager, skipped: skipped)
        }
        // Checks the whole document, builds only what the spec reads.
        do {
            let conversion = try package(spec.parseDocument(data), path: path, spec: spec)
            if conversion.skipped.isEmpty { return conversion }
        } catch is PackagingError {}
        // A missing key's "did you mean" names keys the spec does not read,
        // which the projected document left out: the report comes from a
        // full parse, which packages to the same manager.
        return try package(JSONParser().parse(data), path: path, spec: spec)
    }

    /// Packages `document` with `spec`, as one section or as its sections.
    private static func package(_ document: JSONValue, path: String, spec: SpecPackager) throws -> Conversion {
        if spec.spec.hasSections {
            // Skips are reported as "section S, item I".
            let (manager, skipped) = try spec.packageManager(document: document)
            return Conversion(path: path, manager: manager, skipped: skipped)
        }
        // One section: skips are reported as "item I".
        let result = try spec.package(document: document)
        let section = Section(items: result.items, header: result.header)
        return Conversion(path: path, manager: Manager(sections: [section]), skipped: result.skipped)
    }
}

extension PackagingLocation {
    /// Whether this is an item's location, in a section or not.
    fileprivate var isItem: Bool {
        switch self {
        case .item: true
        case .header, .items: false
        case .section(_, let inner): inner.isItem
        }
    }
}
