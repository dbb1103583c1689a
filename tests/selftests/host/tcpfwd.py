# SPDX-License-Identifier: GPL-2.0-or-later
"""A TCP forwarder for host selftests: tcpfwd.py LADDR LPORT RADDR RPORT.

smbcacls has no port option: it reaches the VM's forwarded SMB port through
this, listening on port 445 of a loopback address of its own (127.x.y.z).
Prints "ready" once it listens.
"""
import asyncio
import sys


async def pipe(reader, writer):
    try:
        while data := await reader.read(65536):
            writer.write(data)
            await writer.drain()
    finally:
        writer.close()


async def main(laddr, lport, raddr, rport):
    async def handle(reader, writer):
        try:
            rreader, rwriter = await asyncio.open_connection(raddr, rport)
        except OSError:
            writer.close()
            return
        await asyncio.gather(pipe(reader, rwriter), pipe(rreader, writer),
                             return_exceptions=True)

    server = await asyncio.start_server(handle, laddr, lport)
    print("ready", flush=True)
    async with server:
        await server.serve_forever()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2]), sys.argv[3],
                     int(sys.argv[4])))
