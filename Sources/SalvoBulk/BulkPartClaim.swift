#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Salvo

/// A file's name in its directory, claimed on the file system itself, so that any number of
/// processes (the shards of one job, unrelated runs) and downloaders writing into one
/// directory never take the same name.
///
/// The claim is the partial file `NAME.part`, created with `O_EXCL` and locked with `flock`
/// for as long as its owner works on it; a name whose final file exists is never claimed,
/// and the finished file is renamed into place without replacing anything
/// (`DownloadedFileMove.renameIfAbsent`). A partial file nobody holds the lock of was left by
/// a process that ended: it is taken up only by a run for the same URL (`BulkFileOwner`),
/// and left alone by every other.
struct BulkPartClaim: Sendable {
    enum Kind: Sendable, Equatable {
        /// A partial file this run created, empty.
        case new
        /// A partial file of the same URL that an ended process left; its bytes and sidecar
        /// are there to be continued or started over.
        case abandoned
        /// The URL's finished file (found only when looking for earlier work).
        case complete
    }

    /// The claimed path, relative to the directory.
    let name: String
    /// The name asked for, which `name` is or numbers.
    let base: String
    let kind: Kind
    /// Open on the partial file, holding its lock until closed; -1 for `complete`.
    let descriptor: Int32
    /// Whether a sidecar may sit beside the partial file.
    let sidecarMayExist: Bool
}

/// Claims names for one file of a run: see `BulkPartClaim`.
struct BulkPartClaimer: Sendable {
    /// How many free names in a row end the search for a URL's earlier files: a name is
    /// freed again only when its file failed, so gaps are rare and short.
    static let freeNamesEndingSearch = 8

    let directoryPath: String
    /// The URL recorded on a new partial file.
    let owner: String
    /// The URLs whose files are this file's: the entry's URIs.
    let owners: Set<String>
    let claims: BulkNameClaims
    let directoryLock: BulkDirectoryLock
    /// Whether a regular file under a name leaves the name free: the finished file will
    /// replace it (`allowOverwrite`). Names this run gave out are still taken.
    var replacesFinished = false

    /// Claims `base`, or the first numbered variant of it (`a (1).txt`, …) that no process
    /// holds and no finished file has, creating and locking its partial file. A partial file
    /// of the same URL left by an ended process is taken (`abandoned`).
    ///
    /// - Throws: `BulkFileError` when the directory refuses a new file for another reason
    ///   than the name being taken.
    func claim(_ base: String) throws(BulkFileError) -> BulkPartClaim {
        while true {
            let candidate = claims.claim(base)
            if let claimed = try claimIfFree(candidate, base: base) { return claimed }
        }
    }

    /// Looks for this file's own earlier work under `base` and its numbered variants: a
    /// finished file recorded as downloaded for one of `owners` (or, where nothing is
    /// recorded on it, one `isOwnUnrecorded` accepts), or a partial file of theirs that no
    /// process holds. Stops after `freeNamesEndingSearch` names in a row with neither.
    func findOwn(_ base: String, isOwnUnrecorded: (String) -> Bool) -> BulkPartClaim? {
        var number = 0
        var free = 0
        while free < Self.freeNamesEndingSearch {
            let candidate = number == 0 ? base : BulkNameClaims.numbered(base, number)
            number += 1
            // The run's memory of names is not consulted: it marks names found taken, and
            // this entry's own earlier work is among them.
            let path = directoryPath + "/" + candidate
            var info = stat()
            if lstat(path, &info) == 0 {
                free = 0
                guard (info.st_mode & S_IFMT) == S_IFREG else { continue }
                let isOwn = BulkFileOwner.read(path: path).map(owners.contains) ?? isOwnUnrecorded(path)
                if isOwn, claims.recordFound(candidate) {
                    return BulkPartClaim(name: candidate, base: base, kind: .complete, descriptor: -1, sidecarMayExist: false)
                }
                continue
            }
            let partPath = path + ".part"
            guard lstat(partPath, &info) == 0 else {
                free += 1
                continue
            }
            free = 0
            // The lock decides between entries of this run too: each opens the file anew.
            if let taken = takeAbandoned(candidate, base: base, partPath: partPath) {
                _ = claims.recordFound(candidate)
                return taken
            }
        }
        return nil
    }

    /// Claims `candidate` if it is free on disk, or takes its partial file if that is an
    /// abandoned one of the same URL; `nil` when it is someone else's.
    private func claimIfFree(_ candidate: String, base: String) throws(BulkFileError) -> BulkPartClaim? {
        let path = directoryPath + "/" + candidate
        let partPath = path + ".part"
        while true {
            if isTaken(path) { return nil }
            let created = createLocked(partPath)
            guard let (descriptor, recorded) = created else {
                let code = errno
                guard code == EEXIST else { throw BulkFileError("create", path: partPath, errno: code) }
                if let taken = takeAbandoned(candidate, base: base, partPath: partPath) { return taken }
                // Removed meanwhile by its owner: the name may be free now.
                if !Self.exists(partPath) { continue }
                return nil
            }
            // The finished file may have appeared after the check above, from an owner of this
            // name that renamed it into place before the partial name was free again.
            if isTaken(path) {
                directoryLock.run { _ = unlink(partPath) }
                close(descriptor)
                return nil
            }
            var sidecarMayExist = Self.exists(BulkPartSidecar.path(forPart: partPath))
            if !recorded {
                // No extended attributes here: the sidecar says whose the file is, from now on.
                let sidecar = BulkPartSidecar(url: owner, etag: nil, lastModified: nil, expectedLength: nil, bytesDone: 0)
                do {
                    try sidecar.write(to: BulkPartSidecar.path(forPart: partPath))
                } catch {
                    directoryLock.run { _ = unlink(partPath) }
                    close(descriptor)
                    throw BulkFileError("cannot record the URL of \(partPath): \(error)")
                }
                sidecarMayExist = true
            }
            return BulkPartClaim(name: candidate, base: base, kind: .new, descriptor: descriptor, sidecarMayExist: sidecarMayExist)
        }
    }

    /// Creates the partial file at `partPath`, locked and with its owner recorded, unless the
    /// name exists; returns its descriptor and whether the owner is recorded on it, or `nil`
    /// with `errno` set.
    ///
    /// The file is made nameless (`O_TMPFILE`), locked and marked first, and only then linked
    /// under its name, which fails if the name exists: a process killed at any point leaves
    /// either nothing or a file that says whose it is. Where the file system cannot make
    /// nameless files, it is created under its name with `O_EXCL` and then locked and
    /// marked, and a kill in between leaves an empty file that no run takes.
    ///
    /// Only the step that adds the name to the directory takes the run's directory lock: the
    /// nameless file, its lock and its owner touch no directory entry.
    private func createLocked(_ partPath: String) -> (Int32, Bool)? {
        let slash = partPath.utf8.lastIndex(of: UInt8(ascii: "/"))
        let folder = slash.map { String(partPath[..<$0]) } ?? "."
        let nameless = systemOpen(folder, Self.temporaryFileFlag | O_RDWR | O_CLOEXEC)
        if nameless >= 0 {
            _ = flock(nameless, LOCK_EX)
            let recorded = BulkFileOwner.record(owner, on: nameless)
            let source = "/proc/self/fd/\(nameless)"
            let code = directoryLock.run { linkat(AT_FDCWD, source, AT_FDCWD, partPath, AT_SYMLINK_FOLLOW) == 0 ? 0 : errno }
            if code == 0 { return (nameless, recorded) }
            close(nameless)
            // Without /proc the link cannot be made: the named way below.
            guard code == ENOENT || code == EPERM || code == EXDEV else {
                errno = code
                return nil
            }
        }
        let (descriptor, code) = directoryLock.run { () -> (Int32, Int32) in
            let descriptor = systemOpen(partPath, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC)
            return (descriptor, descriptor < 0 ? errno : 0)
        }
        guard descriptor >= 0 else {
            errno = code
            return nil
        }
        // Blocking, but only ever for a moment: a process that opened this new file to see
        // whose it is holds the lock while it reads the (not yet written) owner.
        _ = flock(descriptor, LOCK_EX)
        return (descriptor, BulkFileOwner.record(owner, on: descriptor))
    }

    /// Linux's `O_TMPFILE` (`__O_TMPFILE | O_DIRECTORY`), which Swift's Glibc module does not
    /// import; the same value on every Linux architecture Swift supports.
    private static let temporaryFileFlag: Int32 = 0o20000000 | O_DIRECTORY

    /// Opens and locks the partial file at `partPath` when no process holds it and it was made
    /// for one of `owners`; `nil` otherwise.
    private func takeAbandoned(_ candidate: String, base: String, partPath: String) -> BulkPartClaim? {
        let descriptor = systemOpen(partPath, O_RDWR | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        var keep = false
        defer { if !keep { close(descriptor) } }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else { return nil }
        // Locked, but perhaps no longer under this name: its owner may have renamed it into
        // place or removed it between the open and the lock.
        var opened = stat()
        var named = stat()
        guard fstat(descriptor, &opened) == 0, lstat(partPath, &named) == 0, opened.st_dev == named.st_dev,
              opened.st_ino == named.st_ino, (opened.st_mode & S_IFMT) == S_IFREG else { return nil }
        let sidecarPath = BulkPartSidecar.path(forPart: partPath)
        guard let recorded = BulkFileOwner.read(descriptor: descriptor) ?? BulkPartSidecar.read(at: sidecarPath)?.url,
              owners.contains(recorded) else { return nil }
        keep = true
        return BulkPartClaim(name: candidate, base: base, kind: .abandoned, descriptor: descriptor, sidecarMayExist: true)
    }

    /// Whether `path` is not free for a finished file: anything has the name, unless it is a
    /// regular file that `replacesFinished` lets the finished file replace.
    private func isTaken(_ path: String) -> Bool {
        var info = stat()
        guard lstat(path, &info) == 0 else { return false }
        return !(replacesFinished && (info.st_mode & S_IFMT) == S_IFREG)
    }

    /// Whether anything (a file, a folder, a link) has the name `path`.
    private static func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }
}

/// `open(2)`, mode `0644` when it creates. (A free function: inside types with an `open`
/// method, `open` is the method.)
func systemOpen(_ path: String, _ flags: Int32) -> Int32 {
    open(path, flags, 0o644)
}
