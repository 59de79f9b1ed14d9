<?xml version="1.0" encoding="UTF-8"?>
<!-- transform-value (and composite), request only: the channel's value gets the "esb/" prefix; credentials,
     checked by the gateway, are not passed on. Everything else is copied unchanged. -->
<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform" xmlns:cs="urn:perflab:claims:v1">
  <xsl:output method="xml" encoding="UTF-8" omit-xml-declaration="yes" indent="no"/>

  <xsl:template match="@*|node()">
    <xsl:copy><xsl:apply-templates select="@*|node()"/></xsl:copy>
  </xsl:template>

  <xsl:template match="cs:channel/text()">
    <xsl:value-of select="concat('esb/', .)"/>
  </xsl:template>

  <xsl:template match="cs:credentials"/>
</xsl:stylesheet>
