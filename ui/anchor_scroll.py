"""Land on the entry a link's ``#anchor`` names, once the page's elements are all drawn.

Streamlit scrolls to a heading's anchor when that heading is drawn; elements drawn after it above it (the
Glossary's contents) can push it down again, so a link to ``/glossary#cohens-kappa`` sometimes left the reader
elsewhere. This script, placed after everything else, scrolls to the anchor again a few times while the page
settles, once per page load and anchor, and stops as soon as the reader scrolls, types or touches the page.
"""

from __future__ import annotations

import streamlit as st

_LAND = """
<script>
(() => {
  const id = decodeURIComponent(window.location.hash.slice(1));
  if (!id || window.__agenticLanded === id) return;
  window.__agenticLanded = id;
  let tries = 0;
  const stop = () => { tries = Infinity; };
  for (const kind of ["wheel", "touchstart", "keydown", "mousedown"]) {
    window.addEventListener(kind, stop, {once: true, passive: true});
  }
  const land = () => {
    if (tries >= 10) return;
    const entry = document.getElementById(id);
    if (entry) entry.scrollIntoView({block: "start"});
    tries += 1;
    setTimeout(land, 200);
  };
  land();
})();
</script>
"""


def land_on_anchor() -> None:
    """Scroll to the URL's ``#anchor`` once the page is drawn (call last on a page whose entries have anchors)."""
    # A fixed script of ours, no user text in it: the one place the dashboard runs its own JavaScript.
    st.html(_LAND, unsafe_allow_javascript=True)
