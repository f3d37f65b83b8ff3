import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

extension MultipartFormData {
    /// One part of the form: its headers, where its content comes from, and its declared length.
    struct BodyPart {
        enum Source {
            /// Content already in memory.
            case data(Data)
            /// A file, opened afresh each time the form is encoded.
            case file(URL)
            /// A caller's stream; it can be read only once.
            case stream(InputStream)
            /// A stream an earlier encoding has taken.
            case consumedStream
        }

        let headers: HTTPHeaders
        var source: Source
        let length: UInt64
    }

    /// The outcome of checking a file to append.
    enum FileCheck {
        case readable(length: UInt64)
        case failed(AFError.MultipartEncodingFailureReason)
    }

    /// Checks, in Alamofire's order, that `fileURL` names a readable regular file, and returns
    /// its size.
    ///
    /// Alamofire skips the reachability check on Linux, so a missing file there is reported as a
    /// directory; Salvo checks reachability as Alamofire does on Apple platforms, so a missing file
    /// gives `bodyPartFileNotReachableWithError`. Readability is tested by opening the file, where
    /// Alamofire creates an `InputStream` (which on Linux only fails later, when read).
    func checkedFileLength(_ fileURL: URL) -> FileCheck {
        guard fileURL.isFileURL else { return .failed(.bodyPartURLInvalid(url: fileURL)) }

        do {
            guard try fileURL.checkResourceIsReachable() else { return .failed(.bodyPartFileNotReachable(at: fileURL)) }
        } catch {
            return .failed(.bodyPartFileNotReachableWithError(atURL: fileURL, error: error))
        }

        let path = fileURL.path
        var isDirectory: ObjCBool = false
        guard fileManager.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else {
            return .failed(.bodyPartFileIsDirectory(at: fileURL))
        }

        let length: UInt64
        do {
            guard let size = try fileManager.attributesOfItem(atPath: path)[.size] as? NSNumber else {
                return .failed(.bodyPartFileSizeNotAvailable(at: fileURL))
            }
            length = size.uint64Value
        } catch {
            return .failed(.bodyPartFileSizeQueryFailedWithError(forURL: fileURL, error: error))
        }

        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return .failed(.bodyPartInputStreamCreationFailed(for: fileURL)) }
        close(descriptor)
        return .readable(length: length)
    }

    /// The MIME type for a file extension, compared case-insensitively, or
    /// `application/octet-stream` when the extension is not in the table.
    ///
    /// Linux has no system type registry that Alamofire could ask (it answers
    /// `application/octet-stream` for everything there), so Salvo carries a table of the common
    /// web types, using the IANA-registered name where one exists.
    static func mimeType(forPathExtension pathExtension: String) -> String {
        mimeTypes[pathExtension.lowercased()] ?? "application/octet-stream"
    }

    private static let mimeTypes: [String: String] = [
        // Text and data
        "txt": "text/plain", "text": "text/plain", "log": "text/plain",
        "html": "text/html", "htm": "text/html", "css": "text/css", "csv": "text/csv",
        "md": "text/markdown", "markdown": "text/markdown", "ics": "text/calendar", "vcf": "text/vcard",
        "js": "text/javascript", "mjs": "text/javascript",
        "json": "application/json", "xml": "application/xml", "yaml": "application/yaml",
        "yml": "application/yaml", "pdf": "application/pdf", "rtf": "application/rtf",
        "wasm": "application/wasm",
        // Images
        "png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg", "gif": "image/gif",
        "webp": "image/webp", "avif": "image/avif", "heic": "image/heic", "heif": "image/heif",
        "bmp": "image/bmp", "tif": "image/tiff", "tiff": "image/tiff", "svg": "image/svg+xml",
        "ico": "image/vnd.microsoft.icon",
        // Audio and video
        "mp3": "audio/mpeg", "m4a": "audio/mp4", "aac": "audio/aac", "wav": "audio/wav",
        "ogg": "audio/ogg", "oga": "audio/ogg", "flac": "audio/flac", "opus": "audio/opus",
        "mp4": "video/mp4", "m4v": "video/mp4", "mov": "video/quicktime", "webm": "video/webm",
        "mpeg": "video/mpeg", "mpg": "video/mpeg", "avi": "video/x-msvideo", "mkv": "video/x-matroska",
        // Archives
        "zip": "application/zip", "gz": "application/gzip", "tgz": "application/gzip",
        "tar": "application/x-tar", "bz2": "application/x-bzip2", "xz": "application/x-xz",
        "7z": "application/x-7z-compressed", "zst": "application/zstd",
        // Fonts
        "woff": "font/woff", "woff2": "font/woff2", "ttf": "font/ttf", "otf": "font/otf",
        // Office documents
        "doc": "application/msword", "xls": "application/vnd.ms-excel", "ppt": "application/vnd.ms-powerpoint",
        "docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        "pptx": "application/vnd.openxmlformats-officedocument.presentationml.presentation",
        "odt": "application/vnd.oasis.opendocument.text",
        "ods": "application/vnd.oasis.opendocument.spreadsheet",
    ]
}
