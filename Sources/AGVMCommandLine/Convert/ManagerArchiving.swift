import AGViewModel
import Foundation

// STAND-IN: archives of managers (`ArchiveRecord.manager`, issue 6 part 2)
// are not on main yet. Until they are, `agvm convert --to archive` archives
// the manager's JSON export as a `.value` record. This file is the only
// place the tool decides what a converted manager is archived as.

/// Writing a converted manager to an archive file.
enum ManagerArchiving {
    /// The record a manager is archived as.
    static func record(for manager: Manager) -> ArchiveRecord {
        .value(ManagerExport.json(manager))
    }

    /// Archives `conversion`'s manager to `path` atomically; prints errors
    /// and skipped payloads, and returns the exit status.
    static func write(_ conversion: Conversion, to path: String, io: ToolIO) -> Int32 {
        let encoded: EncodedArchive
        do {
            encoded = try ArchiveEncoder().encode(record(for: conversion.manager))
        } catch {
            io.writeError("\(CommandLineTool.displayName(conversion.path)): error: \(error)\n")
            return 1
        }
        for skipped in encoded.skippedPayloads {
            io.writeError("\(path): warning: \(skipped)\n")
        }
        return CommandLineTool.emit(encoded.data, to: path, io: io) ? 0 : 1
    }
}
