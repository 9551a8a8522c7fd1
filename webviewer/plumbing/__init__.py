"""What the app runs on, below its pages: the archive connections (``db``), the session
cookie's key (``secret``) and serializers (``sessions``), the bounded cache the server's
threads share (``cache``), the site's links (``site``) and checked query-string values
(``args``)."""
