"""The facet tree: all records, then domains, then categories, each with its count."""

from __future__ import annotations

from rich.text import Text
from textual.reactive import reactive
from textual.widgets import Tree
from textual.widgets.tree import TreeNode

from ..kb import KB
from ..messages import FacetChosen
from ..state import ALL, Facet
from ..text import plain


def _label(name: str, count: int) -> Text:
    text = Text(plain(name))
    text.append(f" {count:,}", style="dim")
    return text


class FacetTree(Tree[Facet]):
    """Browse by domain and category: the cursor shows the bound ``facet``; moving it
    asks for another one (:class:`~errkb_tui.messages.FacetChosen`)."""

    kb: reactive[KB | None] = reactive(None, init=False)
    """The KB whose domains and categories are listed."""
    facet: reactive[Facet] = reactive(ALL, init=False)
    """The facet being browsed (the App's)."""

    def __init__(self, **kwargs) -> None:
        super().__init__(Text("All records"), data=ALL, **kwargs)
        self.show_root = True
        self.guide_depth = 2
        self._facet_nodes: dict[Facet, TreeNode[Facet]] = {}

    def watch_kb(self, kb: KB | None) -> None:
        if kb is None:
            return
        self.clear()
        self.root.set_label(_label("All records", len(kb.records)))
        self._facet_nodes = {ALL: self.root}
        for domain in kb.domains:
            node = self.root.add(_label(domain, kb.domain_counts[domain]), data=(domain, None))
            self._facet_nodes[(domain, None)] = node
            for category in kb.categories(domain):
                count = kb.category_counts[domain][category]
                self._facet_nodes[(domain, category)] = node.add_leaf(_label(category, count), data=(domain, category))
        self.root.expand()
        self.watch_facet(self.facet)

    def watch_facet(self, facet: Facet) -> None:
        node = self._facet_nodes.get(facet)
        if node is None or self.cursor_node is node:
            return
        if node.parent is not None and not node.parent.is_expanded:
            node.parent.expand()
        self.call_after_refresh(self.move_cursor, node)

    def on_tree_node_highlighted(self, event: Tree.NodeHighlighted[Facet]) -> None:
        event.stop()
        facet = event.node.data or ALL
        if facet != self.facet:
            self.post_message(FacetChosen(facet))
