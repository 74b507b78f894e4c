/// What a spec reads from a document, so a response can be parsed building
/// only that (see ``SpecPackager/parseDocument(_:options:)``).
extension PackagingSpec {
    /// The projection of every path the packager reads: the header and item
    /// fields, template placeholders, and the items and sections paths.
    /// Wherever the packager copies or iterates a whole value (no field
    /// list, `keyedBy`, `sectionsFrom`), that value is read whole.
    internal var projection: JSONProjection {
        var projection = JSONProjection()
        let root = JSONProjection.root
        if let sections {
            for entry in sections {
                if entry.headerPath != nil || entry.headerFields != nil {
                    Self.project(header: entry.headerPath, fields: entry.headerFields, into: &projection)
                }
                Self.project(items: entry.itemsPath, fields: entry.fields, source: entry.itemSource, into: &projection)
            }
        } else if let sectionsPath {
            projection.readWhole(sectionsPath)
        } else {
            if hasHeader { Self.project(header: headerPath, fields: headerFields, into: &projection) }
            if let itemsPath {
                Self.project(items: itemsPath, fields: fields, source: itemSource, into: &projection)
            } else if itemSource.memberNameKey != nil {
                projection.readWhole(root)
            } else {
                // The document's elements, or the document as the one item:
                // its kind decides, unless a header reads it as an object.
                Self.project(fields: fields, at: root, into: &projection)
                if let elements = projection.everyElement(of: root) {
                    Self.project(fields: fields, at: elements, into: &projection)
                }
                if !hasHeader { projection.letKindDecide(root) }
            }
        }
        return projection.finished()
    }

    private static func project(header path: JSONPath?, fields: [Field]?, into projection: inout JSONProjection) {
        guard let node = path.map({ projection.node(at: $0) }) ?? JSONProjection.root else { return }
        project(fields: fields, at: node, into: &projection)
        // A header is an object, even when its fields all start with an
        // index: an array there is the wrong kind, reported with its count.
        projection.readAsObject(node)
    }

    private static func project(items path: JSONPath, fields: [Field]?, source: ItemSource, into projection: inout JSONProjection) {
        guard let node = projection.node(at: path) else { return }
        if source.memberNameKey != nil {
            projection.readWhole(node)
        } else if let elements = projection.everyElement(of: node) {
            project(fields: fields, at: elements, into: &projection)
        }
    }

    private static func project(fields: [Field]?, at node: Int32, into projection: inout JSONProjection) {
        guard let fields else {
            projection.readWhole(node)  // every member is copied
            return
        }
        for field in fields {
            if let template = field.template {
                for path in template.placeholderPaths { projection.readWhole(path, from: node) }
            } else if case .path(let path) = field.source {
                projection.readWhole(path, from: node)
            }
        }
    }
}
