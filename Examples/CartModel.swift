// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

// A `@Published` view model: the view reads the properties, the model derives one from the
// others with operators, and `objectWillChange` tells the view before any of them changes.
import Sluice

public final class CartModel: ObservableObject {
    public struct Item: Equatable, Sendable {
        public let name: String
        public let price: Int
        public var quantity: Int

        public init(name: String, price: Int, quantity: Int) {
            self.name = name
            self.price = price
            self.quantity = quantity
        }
    }

    @Published public var items: [Item] = []
    @Published public var discountPercent = 0
    /// The total to pay, in cents, after the discount.
    @Published public private(set) var total = 0

    public init() {
        $items
            .map { $0.reduce(0) { $0 + $1.price * $1.quantity } }
            .combineLatest($discountPercent) { subtotal, discount in subtotal - subtotal * discount / 100 }
            .assign(to: &$total)
    }

    public func add(_ name: String, price: Int) {
        if let index = items.firstIndex(where: { $0.name == name }) {
            items[index].quantity += 1
        } else {
            items.append(Item(name: name, price: price, quantity: 1))
        }
    }
}
