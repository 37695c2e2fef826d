"""The facet tree: all records, then domains, then categories, each with its count."""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text
from textual.message import Message
from textual.widgets import Tree
from textual.widgets.tree import TreeNode

from ..kb import KB
from ..text import plain

Facet = tuple[str | None, str | None]


def _label(name: str, count: int) -> Text:
    text = Text(plain(name))
    text.append(f" {count:,}", style="dim")
    return text


class FacetTree(Tree[Facet]):
    """Browse by domain and category; moving the cursor changes the facet."""

    @dataclass
    class Changed(Message):
        """The facet under the cursor changed."""

        domain: str | None
        category: str | None

        def can_replace(self, message: Message) -> bool:
            return isinstance(message, FacetTree.Changed)

    def __init__(self, **kwargs) -> None:
        super().__init__(Text("All records"), data=(None, None), **kwargs)
        self.show_root = True
        self.guide_depth = 2
        self._facet_nodes: dict[Facet, TreeNode[Facet]] = {}

    def load(self, kb: KB) -> None:
        """Fill the tree from ``kb``'s indexes."""
        self.clear()
        self.root.set_label(_label("All records", len(kb.records)))
        self._facet_nodes = {(None, None): self.root}
        for domain in kb.domains:
            node = self.root.add(_label(domain, kb.domain_counts[domain]), data=(domain, None))
            self._facet_nodes[(domain, None)] = node
            for category in kb.categories(domain):
                count = kb.category_counts[domain][category]
                self._facet_nodes[(domain, category)] = node.add_leaf(_label(category, count), data=(domain, category))
        self.root.expand()

    def select_facet(self, facet: Facet) -> None:
        """Move the cursor to ``facet`` (expanding its domain), which posts :class:`Changed`."""
        node = self._facet_nodes.get(facet)
        if node is None:
            return
        if node.parent is not None and not node.parent.is_expanded:
            node.parent.expand()
        self.call_after_refresh(self.move_cursor, node)

    @property
    def facets(self) -> list[Facet]:
        """Every facet in tree order."""
        return list(self._facet_nodes)

    def on_tree_node_highlighted(self, event: Tree.NodeHighlighted[Facet]) -> None:
        event.stop()
        domain, category = event.node.data or (None, None)
        self.post_message(self.Changed(domain, category))
