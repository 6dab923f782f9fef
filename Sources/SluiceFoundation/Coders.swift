import Foundation

// Foundation's coders as the top-level coders `encode(encoder:)` and `decode(type:decoder:)` take.
#if SLUICE_REFERENCE
import SluiceReference
#else
import Sluice
#endif

extension JSONEncoder: TopLevelEncoder {}

extension JSONDecoder: TopLevelDecoder {}

extension PropertyListEncoder: TopLevelEncoder {}

extension PropertyListDecoder: TopLevelDecoder {}
