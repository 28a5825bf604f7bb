public import PDFGraphics
import Synchronization

/// Converts `/ICCBased` colours to sRGB with lcms2 (ISO 32000-2 §8.6.5.5), relative colorimetric
/// intent, the sRGB profile lcms2 builds as destination.
///
/// Transforms are cached per profile (its bytes and channel count), at most
/// ``maximumCachedProfiles`` at a time; copies of a factory share the cache. A factory and its
/// converters can be used from any thread: creation is serialised, conversion runs in parallel.
public struct LCMSConverterFactory: ICCConverterFactory {
    /// How many profiles' transforms are kept (the cache empties when it is full).
    public static let maximumCachedProfiles = 32

    private final class Cache: Sendable {
        struct Key: Hashable {
            var profile: [UInt8]
            var componentCount: Int
        }
        /// nil values remember profiles that cannot be used.
        let transforms = Mutex<[Key: LCMSTransform?]>([:])
    }

    private let cache = Cache()
    private static let creation = Mutex<Void>(())

    /// A factory with an empty cache.
    public init() {}

    /// A converter from `profile` (an ICC profile's bytes) with `componentCount` channels (1 gray,
    /// 3 RGB, 4 CMYK) to sRGB, or nil when lcms2 cannot read the profile or its colour space does
    /// not have that many channels.
    public func converter(profile: [UInt8], componentCount: Int) -> (any ICCConverter)? {
        let key = Cache.Key(profile: profile, componentCount: componentCount)
        return cache.transforms.withLock { transforms -> LCMSTransform? in
            if let known = transforms[key] { return known }
            // Profile parsing and transform creation share lcms2's global context: one at a time in
            // the whole process, whichever factory asks (conversions still run in parallel).
            let made = LCMSConverterFactory.creation.withLock { _ in
                LCMSTransform(profile: profile, componentCount: componentCount)
            }
            if transforms.count >= LCMSConverterFactory.maximumCachedProfiles { transforms.removeAll() }
            transforms[key] = made
            return made
        }
    }

    /// The number of profiles whose transform (or failure) is cached.
    public var cachedProfileCount: Int { cache.transforms.withLock { $0.count } }
}
