// Small programs in each language the code index parses, for extraction and contract tests.
import type { LanguageId } from '../../src/code/languages.ts';

export const SAMPLES: Record<LanguageId, { file: string; text: string }> = {
  typescript: {
    file: 'src/orders.ts',
    text: `import { queue } from './queue';

/** Handles orders. */
export class OrderHandler {
  handle(order: Order): number {
    return queue.push(order);
  }
}

export function checkout(order: Order): number {
  return new OrderHandler().handle(order);
}

export const total = (items: number[]) => items.reduce(add, 0);
`,
  },
  tsx: {
    file: 'src/view.tsx',
    text: `import { render } from './dom';

export function View(props: Props) {
  return render(<div>{props.name}</div>);
}
`,
  },
  javascript: {
    file: 'lib/cart.js',
    text: `const { sum } = require('./math');

class Cart {
  add(item) {
    return sum(this.items, item);
  }
}

function checkout(cart) {
  return cart.add(1);
}

module.exports = { Cart, checkout };
`,
  },
  python: {
    file: 'shop/cart.py',
    text: `from .pricing import discount

class Cart:
    # A shopping cart.
    @property
    def add_item(self, name, price):
        return discount(price)

def checkout(cart):
    return cart.add_item("x", 1)
`,
  },
  go: {
    file: 'store/store.go',
    text: `package store

import "fmt"

// Store keeps values.
type Store struct {
	items map[string]int
}

func (s *Store) Put(key string, value int) error {
	fmt.Println(key)
	return nil
}

func NewStore() *Store {
	return &Store{}
}
`,
  },
  rust: {
    file: 'src/lib.rs',
    text: `mod parser;

/// A parser.
pub struct Parser {
    input: String,
}

impl Parser {
    pub fn parse_number(&self) -> Option<i64> {
        self.input.parse().ok()
    }
}

pub fn parse_all(p: &Parser) -> i64 {
    p.parse_number().unwrap_or(0)
}
`,
  },
  java: {
    file: 'src/Orders.java',
    text: `import java.util.List;

public class Orders {
  /** Handles one order. */
  public int handle(Order order) {
    return queue.push(order);
  }
}
`,
  },
  csharp: {
    file: 'src/Orders.cs',
    text: `using System;

namespace Shop {
  public class Orders {
    public int Handle(Order order) {
      return Queue.Push(order);
    }
  }
}
`,
  },
  c: {
    file: 'src/list.c',
    text: `#include "list.h"

/* Adds an entry. */
static void list_add(struct list *l, int v)
{
	grow(l);
	l->items[l->n++] = v;
}

int list_sum(struct list *l)
{
	list_add(l, 0);
	return 0;
}
`,
  },
  cpp: {
    file: 'src/list.cpp',
    text: `#include "list.hpp"

namespace ds {
class List {
 public:
  void add(int v);
};

void List::add(int v) {
  grow(v);
}
}
`,
  },
  ruby: {
    file: 'lib/cart.rb',
    text: `require 'json'

class Cart
  # Adds an item.
  def add_item(name)
    items.push(name)
  end
end
`,
  },
  php: {
    file: 'src/Cart.php',
    text: `<?php
use App\\Pricing;

class Cart {
    public function addItem($name) {
        return $this->push($name);
    }
}

function checkout($cart) {
    return $cart->addItem("x");
}
`,
  },
};
