"""
A third party's protocol, for the tests: a package that uses gameproto and
that gameproto does not know.  Its protocol plugin sits in its own
``twisted/plugins/`` (put on C{twisted.plugins.__path__}, as an installed
package's is), never in gameproto's.
"""
