import Foundation

/// A type that can be stored in a ViewModel under a typed key (``ViewModel/Key``).
///
/// Conforming types say how they are written (their natural stored form) and
/// how they are read back from whatever is stored. The library conforms the
/// JSON types (`String`, `Int`, `Int64`, `Double`, `Float`, `Bool`, `[JSONValue]`,
/// `JSONObject`, `JSONValue`), `URL`, `ViewModel`, ``Section``, ``Manager``
/// and arrays of storable elements. For your own types, adopt ``ViewModelPayload``.
public protocol ViewModelStorable {
    /// The value read from what a ViewModel stores, or `nil` when it cannot
    /// be read as this type.
    static func fromViewModelValue(_ value: ViewModelValue) -> Self?
    /// What a ViewModel stores for this value.
    var viewModelValue: ViewModelValue { get }
}

/// A custom type stored in a ViewModel as a payload (not JSON): an image, a
/// formatter, a domain value.
///
/// Adopting the protocol is all it takes:
///
/// ```swift
/// struct Avatar: ViewModelPayload { var pixels: [UInt8] }
/// extension ViewModel.Key where Value == Avatar { static var avatar: Self { "avatar" } }
/// viewModel[.avatar] = Avatar(pixels: [])
/// ```
///
/// Payloads are stored as ``ViewModelValue/payload(_:)`` and read back by
/// type; exports and archives skip or report the payloads they cannot write.
public protocol ViewModelPayload: ViewModelStorable {}

extension ViewModelPayload {
    /// The payload when it has this type.
    @inlinable
    public static func fromViewModelValue(_ value: ViewModelValue) -> Self? {
        if case .payload(let payload) = value { return payload as? Self }
        return nil
    }

    /// `.payload(self)`.
    @inlinable
    public var viewModelValue: ViewModelValue { .payload(self) }
}

extension ViewModelStorable where Self: JSONReadable {
    /// JSON read leniently by the ``JSONReadable`` rules; a payload of
    /// exactly this type is accepted too.
    @inlinable
    public static func fromViewModelValue(_ value: ViewModelValue) -> Self? {
        switch value {
        case .json(let json): return Self.read(from: json)
        case .payload(let payload): return payload as? Self
        }
    }
}

extension String: ViewModelStorable {
    /// `.json(.string(self))`.
    @inlinable public var viewModelValue: ViewModelValue { .json(.string(self)) }
}

extension Int: ViewModelStorable {
    /// `.json(.int(self))`.
    @inlinable public var viewModelValue: ViewModelValue { .json(.int(Int64(self))) }
}

extension UInt64: ViewModelStorable {
    /// `.json(.int(self))`, or the exact text as `.bigInteger` past
    /// `Int64.max`.
    @inlinable public var viewModelValue: ViewModelValue { .json(jsonValue) }
}

extension Int64: ViewModelStorable {
    /// `.json(.int(self))`.
    @inlinable public var viewModelValue: ViewModelValue { .json(.int(self)) }
}

extension Double: ViewModelStorable {
    /// `.json(.double(self))`. Non-finite values are stored as they are:
    /// `exportJSON()` keeps them in the value it returns, and writing JSON
    /// (`exportJSONData()`, ``JSONWriter``) reports them as errors.
    @inlinable public var viewModelValue: ViewModelValue { .json(.double(self)) }
}

extension Float: ViewModelStorable {
    /// `.json(.double(...))` of the number the float's shortest text
    /// reads: `Float(0.1)` is stored as `0.1`, not as `0.10000000149011612`,
    /// the double it widens to.
    @inlinable public var viewModelValue: ViewModelValue { .json(.double(Double(description) ?? Double(self))) }
}

extension Bool: ViewModelStorable {
    /// `.json(.bool(self))`.
    @inlinable public var viewModelValue: ViewModelValue { .json(.bool(self)) }
}

extension URL: ViewModelStorable {
    /// `.json(.string(absoluteString))`: URLs are stored as their text so
    /// they export as JSON.
    @inlinable public var viewModelValue: ViewModelValue { .json(.string(absoluteString)) }
}

extension JSONObject: ViewModelStorable {
    /// `.json(.object(self))`.
    @inlinable public var viewModelValue: ViewModelValue { .json(.object(self)) }
}

extension JSONArray: ViewModelStorable {
    /// `.json(.array(self))`.
    @inlinable public var viewModelValue: ViewModelValue { .json(.array(self)) }
}

extension JSONValue: ViewModelStorable {
    /// `.json(self)`.
    @inlinable public var viewModelValue: ViewModelValue { .json(self) }
}

extension Array: ViewModelStorable where Element: ViewModelStorable {
    /// A JSON array whose every element reads as `Element` (otherwise
    /// `nil`, never a partial array), or a payload array whose every
    /// element is an `Element` (Swift's `as?`, so `[Any]` holding only
    /// strings reads as `[String]`); an empty payload array reads only
    /// when it is exactly `[Element]`.
    public static func fromViewModelValue(_ value: ViewModelValue) -> [Element]? {
        switch value {
        case .json(.array(let elements)):
            var result: [Element] = []
            result.reserveCapacity(elements.count)
            for element in elements {
                guard let read = Element.fromViewModelValue(.json(element)) else { return nil }
                result.append(read)
            }
            return result
        case .json:
            return nil
        case .payload(let payload):
            // Every empty array casts to every array type; only an empty
            // array of this very type is one.
            guard let list = payload as? [Element] else { return nil }
            return list.isEmpty && type(of: payload) != [Element].self ? nil : list
        }
    }

    /// A JSON array when every element is stored as JSON (`[String]`,
    /// `[Int]`, `[JSONValue]`, ...), otherwise a payload (`[ViewModel]`,
    /// even when empty).
    public var viewModelValue: ViewModelValue {
        // An empty array has no element to tell: a list of ViewModels (or
        // sections, or managers) must stay a payload, or it reads back as
        // `nil` through `payload(forKey:as:)`.
        if isEmpty && Self.isPayloadWhenEmpty { return .payload(self) }
        var elements = JSONArray()
        elements.reserveCapacity(count)
        for element in self {
            guard case .json(let json) = element.viewModelValue else { return .payload(self) }
            elements.append(json)
        }
        return .json(.array(elements))
    }
}

/// Arrays whose elements are stored as payloads (ViewModels, sections,
/// managers, ``ViewModelPayload`` types, and arrays of those): an empty one
/// stays a payload too, so it reads back as its own type.
internal protocol PayloadElementArray {
    static var isPayloadWhenEmpty: Bool { get }
}

extension Array: PayloadElementArray where Element: ViewModelStorable {
    static var isPayloadWhenEmpty: Bool {
        Element.self is ViewModel.Type || Element.self is any ViewModelPayload.Type
            || (Element.self as? any PayloadElementArray.Type)?.isPayloadWhenEmpty == true
    }
}

extension ViewModel: ViewModelStorable {
    /// A nested ViewModel stored as a payload.
    public static func fromViewModelValue(_ value: ViewModelValue) -> ViewModel? {
        if case .payload(let payload) = value { return payload as? ViewModel }
        return nil
    }

    /// `.payload(self)`: the nested ViewModel is stored by reference.
    public var viewModelValue: ViewModelValue { .payload(self) }
}

/// A nested section, stored as a payload by reference
/// (`ViewModel.Key<Section>`); exports, archives, copies, snapshots and
/// diffs nest it. A list of sections (`Key<[Section]>`) is copied by
/// copies and deep merges but left out of exports, archives and snapshots.
extension Section: ViewModelPayload {}

/// A nested manager, stored as a payload by reference
/// (`ViewModel.Key<Manager>`); exports, archives, copies, snapshots and
/// diffs nest it. A list of managers is copied and left out as a list of
/// sections is.
extension Manager: ViewModelPayload {}
