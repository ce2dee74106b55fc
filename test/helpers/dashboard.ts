// Signing in to the dashboard as its page does: the link's token spent at POST /api/signin for a key,
// sent as a header (hub/people/web-signin.ts).

/** The headers a page signed in with `link` (what `switchboard open --print` prints) sends. */
export async function signInWith(link: string): Promise<{ authorization: string }> {
  const url = new URL(link)
  const res = await fetch(`${url.origin}/api/signin`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-switchboard': '1' },
    body: JSON.stringify({ token: url.searchParams.get('token') }),
  })
  if (res.status !== 201) throw new Error(`signing in answered ${res.status}: ${await res.text()}`)
  return { authorization: `Bearer ${((await res.json()) as { key: string }).key}` }
}
