extension JSONParseError {
    /// The name of the non-UTF-8 Unicode encoding `bytes` appear to be in
    /// (`"UTF-16LE"`, `"UTF-32BE"`, ...), from a byte-order mark or the
    /// pattern of zero bytes JSON text has in it (RFC 4627, section 3);
    /// `nil` when they do not look like UTF-16 or UTF-32.
    ///
    /// Servers and editors still produce UTF-16 files; "unexpected byte
    /// 0xFF" alone does not tell the user that the fix is re-encoding.
    internal static func foreignEncoding(of bytes: UnsafeRawBufferPointer) -> String? {
        let b = Array(bytes.prefix(4))
        if b.count >= 4 {
            if b[0] == 0x00, b[1] == 0x00, b[2] == 0xFE, b[3] == 0xFF { return "UTF-32BE" }
            if b[0] == 0xFF, b[1] == 0xFE, b[2] == 0x00, b[3] == 0x00 { return "UTF-32LE" }
        }
        if b.count >= 2 {
            if b[0] == 0xFE, b[1] == 0xFF { return "UTF-16BE" }
            if b[0] == 0xFF, b[1] == 0xFE { return "UTF-16LE" }
        }
        // Without a mark: the first characters of JSON text are ASCII, so
        // their zero bytes give the encoding away (two characters are needed
        // to tell UTF-16 from a stray NUL such as `1\0`).
        if b.count >= 4 {
            if b[0] == 0, b[1] == 0, b[2] == 0, b[3] != 0 { return "UTF-32BE" }
            if b[0] != 0, b[1] == 0, b[2] == 0, b[3] == 0 { return "UTF-32LE" }
            if b[0] == 0, b[1] != 0, b[2] == 0, b[3] != 0 { return "UTF-16BE" }
            if b[0] != 0, b[1] == 0, b[2] != 0, b[3] == 0 { return "UTF-16LE" }
        }
        return nil
    }

    /// This error with a hint appended when it is at the very start of
    /// input in another Unicode encoding.
    internal func addingEncodingHint(for bytes: UnsafeRawBufferPointer) -> JSONParseError {
        guard offset < 4, let encoding = Self.foreignEncoding(of: bytes) else { return self }
        var error = self
        error.message += " (the input looks like \(encoding) text; JSON text must be UTF-8)"
        return error
    }
}
