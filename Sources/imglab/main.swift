import Foundation
import ImageCore
import ImageCodecs

print("imglab")
