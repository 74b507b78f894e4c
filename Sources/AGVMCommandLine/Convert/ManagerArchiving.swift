import AGViewModel
import Foundation

/// Writing a converted manager to an archive file.
enum ManagerArchiving {
    /// The record a manager is archived as.
    static func record(for manager: Manager) -> ArchiveRecord {
        .manager(manager)
    }

    /// Archives `conversion`'s manager to `path` atomically, every key
    /// included; prints errors and skipped payloads, and returns the exit status.
    static func write(_ conversion: Conversion, to path: String, io: ToolIO) throws -> Int32 {
        let encoded: EncodedArchive
        do {
            encoded = try ArchiveEncoder(keys: .everything).encode(record(for: conversion.manager))
        } catch {
            io.writeError("\(CommandLineTool.displayName(conversion.path)): error: \(CommandLineTool.messageText("\(error)"))\n")
            return 1
        }
        for skipped in encoded.skippedPayloads {
            io.writeError("\(CommandLineTool.displayName(path)): warning: \(CommandLineTool.messageText("\(skipped)"))\n")
        }
        try CommandLineTool.emit(encoded.data, to: path, io: io)
            return 0
    }
}
