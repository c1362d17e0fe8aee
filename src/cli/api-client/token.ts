/** A token from the server's /oauth2/token by the client credentials grant (HTTP Basic). */
import type { Connection } from './connection.ts';
import { connectionError, responseError } from './errors.ts';

const formEncode = (value: string) => encodeURIComponent(value).replaceAll('%20', '+');

export async function fetchToken(conn: Connection, client: { id: string; secret: string }): Promise<string> {
  const url = `${conn.url}/oauth2/token`;
  const basic = Buffer.from(`${formEncode(client.id)}:${formEncode(client.secret)}`).toString('base64');
  let res: Response;
  try {
    res = await fetch(url, {
      method: 'POST',
      headers: {
        authorization: `Basic ${basic}`,
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
      },
      body: 'grant_type=client_credentials',
    });
  } catch (err) {
    throw connectionError(conn, err);
  }
  if (!res.ok) throw await responseError(res);
  const body = (await res.json()) as { access_token?: string };
  if (!body.access_token) throw new Error(`${url} answered without an access_token`);
  return body.access_token;
}
