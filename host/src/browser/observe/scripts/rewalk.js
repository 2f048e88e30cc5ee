function (out, cap, roles, want, counts, known) {
  // Match the walk's candidates (`out`) against elements a recent
  // observation identified (`known`, by identity; `counts[k]` is '1' where
  // known element k counted toward the limit then). If every candidate up
  // to the `want`-th that counts is known, or is plain markup of a role not
  // in `roles`, answer with a string: each one's index in `known` (-1 for
  // one left out), how many counted, and the walk's facts for that prefix.
  // Otherwise return the list itself, with those indices as `ix`.
  const prev = new Map(known.map((el, i) => [el, i]));
  const ix = out.map(el => prev.has(el) ? prev.get(el) : -1);
  const fast = JSON.parse(out.fast);
  const wanted = new Set(roles);
  const dialogs = new Set(out.dlg.split(',').filter(i => i !== '').map(Number));
  let count = 0, n = 0;
  for (; n < out.length && count < want; n++) {
    const plain = Array.isArray(fast[n]) ? fast[n] : null;
    const unwanted = plain !== null && !wanted.has(plain[0]);
    if (ix[n] < 0 && !unwanted) {
      out.ix = ix.join(',');
      return out;
    }
    if (ix[n] >= 0 && counts[ix[n]] === '1' && !unwanted && !dialogs.has(n)) count++;
  }
  // Too few counted within the cap: a wider walk may meet new elements,
  // so answer with the list (one group of objects for the whole walk).
  if (count < want && out.length >= cap) {
    out.ix = ix.join(',');
    return out;
  }
  return JSON.stringify({
    ix: ix.slice(0, n).join(','), count,
    more: count >= want,
    depths: out.depths.split(',').slice(0, n).join(','),
    cover: out.cover, href: out.href, title: out.title, pw: out.pw,
    fast: JSON.stringify(fast.slice(0, n)),
    extra: JSON.stringify(JSON.parse(out.extra).slice(0, n)),
  });
}
