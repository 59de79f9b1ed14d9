<?xml version="1.0" encoding="UTF-8"?>
<!-- transform-namespace, response: ClaimServices' v1 back to claims v2 (policyNumber becomes policyId). -->
<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
                xmlns:cs="urn:perflab:claims:v1" exclude-result-prefixes="cs">
  <xsl:output method="xml" encoding="UTF-8" omit-xml-declaration="yes" indent="no"/>

  <xsl:template match="@*|node()">
    <xsl:copy><xsl:apply-templates select="@*|node()"/></xsl:copy>
  </xsl:template>

  <xsl:template match="*">
    <xsl:element name="{name()}" namespace="{namespace-uri()}"><xsl:apply-templates select="@*|node()"/></xsl:element>
  </xsl:template>

  <xsl:template match="cs:*">
    <xsl:element name="cl:{local-name()}" namespace="urn:perflab:claims:v2"><xsl:apply-templates select="@*|node()"/></xsl:element>
  </xsl:template>

  <xsl:template match="cs:policyNumber">
    <xsl:element name="cl:policyId" namespace="urn:perflab:claims:v2"><xsl:apply-templates select="@*|node()"/></xsl:element>
  </xsl:template>
</xsl:stylesheet>
